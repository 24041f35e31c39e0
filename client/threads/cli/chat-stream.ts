/**
 * `cairn chat`'s chat replies as they are written: once the thread has recorded a message (the
 * send's `accepted` hook names it), the thread's live stream (`<thread id>/stream`, from its
 * first retained item — over the API, after the last event the previous message's follow saw —
 * so nothing written before is missed) is followed — through a LiveHub
 * straight to Temporal, or the API's `GET /api/threads/:id/stream` — and the text deltas of that
 * message's `chat` call are printed as they come. When the send returns (the reply is complete)
 * the printer waits, briefly, for the call's end to come through the stream; what it printed is
 * handed back, so the caller prints the recorded reply whole when the stream did not carry all of it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { LiveHub, LiveListener } from '../../live/live-hub';
import type { LiveEvent } from '../../live/live-events';
import type { SendHooks } from '../thread-client';
import { THREAD_KIND } from '../../workflow-kind-guard';
import { write as writeOut } from '../../cli/terminal';

/** Follows a thread's own stream; returns the function that stops following. */
export type FollowThread = (thread: string, listener: LiveListener) => () => void;

/** A thread's stream through a LiveHub (straight to Temporal). */
export const followThroughHub =
  (hub: LiveHub): FollowThread =>
  (thread, listener) =>
    hub.follow(thread, undefined, listener, THREAD_KIND);

/** Where the reply's text goes: the terminal by default (made safe, as every line the CLI prints). */
export type Write = (text: string) => void;

/** The longest the printer waits, after the reply is complete, for its end to come through the stream. */
const TAIL_WAIT_MS = 2_000;

/**
 * Sends with `send` (handed the hooks that learn the message's id), printing the message's chat
 * reply as it is written; resolves with the send's result and the text printed ('' when none).
 */
export async function withStreamedReply<T>(
  follow: FollowThread,
  send: (hooks: SendHooks) => Promise<T>,
  write: Write = (text) => writeOut('out', text),
): Promise<{ result: T; printed: string }> {
  let printer: ReplyPrinter | undefined;
  let stop = () => {};
  try {
    const result = await send({
      accepted: (thread, messageId) => {
        const made = new ReplyPrinter(messageId, write);
        printer = made;
        stop = follow(thread, { event: (e) => made.event(e), reset: () => {}, end: () => {} });
      },
    });
    if (printer?.text) await Promise.race([printer.finished, sleep(TAIL_WAIT_MS)]);
    return { result, printed: printer?.text ?? '' };
  } finally {
    stop();
    if (printer?.text) write('\n');
  }
}

/** Prints one message's chat text deltas, in order; a retried call starts over on a new line. */
class ReplyPrinter {
  /** The text of the newest attempt, as printed. */
  text = '';
  private attempt: number | undefined;
  private resolveFinished: () => void = () => {};
  /** Settles when the message's chat call has finished (its last delta came before). */
  readonly finished = new Promise<void>((resolve) => (this.resolveFinished = resolve));

  constructor(
    private readonly messageId: string,
    private readonly write: Write,
  ) {}

  event(event: LiveEvent): void {
    const d = event.data;
    if (d['messageId'] !== this.messageId || d['purpose'] !== 'chat') return;
    if (event.type === 'call.finished') this.resolveFinished();
    if (event.type !== 'delta' || d['channel'] !== 'text' || typeof d['text'] !== 'string') return;
    const attempt = typeof d['attempt'] === 'number' ? d['attempt'] : 1;
    if (this.attempt !== undefined && attempt !== this.attempt) {
      this.write('\n');
      this.text = '';
    }
    this.attempt = attempt;
    this.write(d['text']);
    this.text += d['text'];
  }
}
