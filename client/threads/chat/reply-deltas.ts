/**
 * A chat reply as it is written, for the front door's streamed answer: the deltas of one
 * message's `chat` call (its text as content, its reasoning as the stream's events) on its
 * thread's live stream (client/live/live-hub.ts), passed on as they come. The thread records the whole reply when the call ends; what
 * was not streamed (an endpoint that cannot stream, a viewer that joined late) is sent from it
 * then (`rest`), so the content always joins to the reply.
 */
import type { LiveHub } from '../../live/live-hub';
import type { LiveEvent } from '../../live/live-events';
import { THREAD_KIND } from '../../workflow-kind-guard';

export class ReplyDeltas {
  private streamed = '';
  private callId: string | undefined;
  private ended = false;
  private retried = false;
  private whenEnded: (() => void) | undefined;
  private readonly unfollow: () => void;

  /**
   * Follows thread `threadId`'s stream for message `messageId`'s reply; `onText` gets each piece
   * of its text, `onOther` each of its other deltas (its reasoning) as the stream's event.
   */
  constructor(
    hub: LiveHub,
    threadId: string,
    private readonly messageId: string,
    private readonly onText: (text: string) => void,
    private readonly onOther: (event: LiveEvent) => void = () => undefined,
  ) {
    this.unfollow = hub.follow(
      threadId,
      undefined,
      { event: (e) => this.take(e), reset: () => undefined, end: () => this.end() },
      THREAD_KIND,
    );
  }

  /**
   * Waits, at most `ms`, for the reply's call to finish on the stream, so its last deltas go out
   * before the rest is reckoned; at once when no reply started streaming.
   */
  async settle(ms: number): Promise<void> {
    if (this.callId === undefined || this.ended) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.whenEnded = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
  }

  /**
   * What is left to send of the recorded reply `content`: what follows the streamed text, or all
   * of it when the streamed text is not its start (a call retried after part of it streamed).
   * Whitespace at the edges of what streamed does not count.
   */
  rest(content: string): string {
    // The recorded reply is trimmed (a reasoning block taken out leaves the text after it):
    // whitespace streamed at either edge is not a difference.
    const sent = this.streamed.trimStart();
    if (content.startsWith(sent)) return content.slice(sent.length);
    return sent.trimEnd() === content.trimEnd() ? '' : content;
  }

  stop(): void {
    this.end();
    this.unfollow();
  }

  private take(event: LiveEvent): void {
    const { data } = event;
    if (data.messageId !== this.messageId || data.purpose !== 'chat' || this.ended) return;
    const callId = typeof data.modelCallId === 'string' ? data.modelCallId : undefined;
    this.callId ??= callId;
    if (callId !== this.callId) return;
    // A retry after part of the reply streamed: what was sent cannot be taken back, so the
    // rest is the whole reply once it is recorded (rest), and nothing more streams.
    if (event.type === 'call.superseded') this.retried = true;
    if (event.type === 'call.finished' && data.outcome === 'completed') this.end();
    if (event.type !== 'delta' || this.retried || typeof data.text !== 'string') return;
    if (data.channel !== 'text') return this.onOther(event);
    this.streamed += data.text;
    this.onText(data.text);
  }

  private end(): void {
    this.ended = true;
    this.whenEnded?.();
  }
}
