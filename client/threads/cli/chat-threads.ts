/**
 * The thread calls `cairn chat` makes, and their HTTP form. Through Cairn's HTTP API
 * (CAIRN_API_URL) a message is sent with `?wait=recorded`, so its id is known at once and its
 * chat reply is printed as it is written, from the thread's stream (`GET /api/threads/:id/stream`,
 * chat-stream.ts); the send is over once the thread has routed the message (its turn past
 * `routing`: a reply written, a task started, the message queued, steered or rejected) — where a
 * send straight to Temporal returns too. Each later message's follow starts after the last event
 * the one before saw, not from the stream's oldest retained item.
 */
import type { ThreadView, Turn } from '../../../workflows/contract/thread-contract';
import { turnSettled } from '../follow-turn';
import { pause } from '../../agents/follow-timeline';
import type { SendHooks } from '../thread-client';
import type { ApiTarget, CairnApi, ChatMessageBody } from '../../cli/cairn-api';
import { withStreamedReply } from './chat-stream';
import { followLiveOverHttp } from '../../live/cli/live-over-http';
import type { LiveListener } from '../../live/live-hub';
import type { LocalFile } from '../../uploads/cli/run-files';

/** The text of a chat reply already printed as it was written ('' or absent: none). */
export type Printed = { printed?: string };

/** `cairn chat`'s options. */
export interface ChatOptions {
  /** Continue this thread instead of opening one. */
  thread?: string;
  /** Route every message as this kind instead of letting the router decide. */
  kind?: 'chat' | 'task';
  /** Who sends and answers, straight to Temporal (through the API the token's principal). */
  by?: string;
  /** `--ask`: a task turn's planner may ask clarifying questions. */
  ask?: boolean;
  /** `--confirm-plan`: a task turn's plan is checked before it runs. */
  confirmPlan?: boolean;
}

/**
 * A line as the message sent: its kind when `--kind` is given, and the planning modes `--ask` and
 * `--confirm-plan` ask for (they apply when the message runs as a task; a mode not asked for is
 * not sent, so the default applies).
 */
export function messageBody(text: string, options: ChatOptions): ChatMessageBody {
  const mode = { ...(options.ask ? { ask: true } : {}), ...(options.confirmPlan ? { confirmPlan: true } : {}) };
  return {
    text,
    ...(options.kind ? { kind: options.kind } : {}),
    ...(Object.keys(mode).length > 0 ? { mode } : {}),
  };
}

/** The thread calls the chat makes, over Temporal or the HTTP API; `files` go to the thread's folder with the message. */
export interface ChatThreads {
  open(message: ChatMessageBody, files: readonly LocalFile[]): Promise<{ id: string; messageId?: string } & Printed>;
  send(id: string, message: ChatMessageBody, files: readonly LocalFile[]): Promise<{ messageId: string } & Printed>;
  get(id: string): Promise<ThreadView>;
}

/** How often the thread is read while a message is being routed (ms). */
const ROUTING_POLL_MS = 250;

/** `cairn chat`'s threads through the API at `target`; `notice` hears why live text stopped, if it does. */
export function threadsOverApi(api: CairnApi, target: ApiTarget, notice: (message: string) => void): ChatThreads {
  /** The last offset seen on each thread's stream: the next message's follow starts after it. */
  const seen = new Map<string, number>();
  const follow = (thread: string, listener: LiveListener) => {
    const last = seen.get(thread);
    const noting: LiveListener = {
      ...listener,
      event: (event) => {
        if (event.offset > (seen.get(thread) ?? -1)) seen.set(thread, event.offset);
        listener.event(event);
      },
    };
    return followLiveOverHttp(target, thread, noting, notice, 'threads', last === undefined ? undefined : String(last));
  };
  /** Sends with `post`, printing the chat reply as it comes, until the message is routed. */
  const streamed = async <T extends { messageId: string }>(
    post: () => Promise<T>,
    threadOf: (sent: T) => string,
  ): Promise<T & Printed> => {
    const { result, printed } = await withStreamedReply(follow, async (hooks: SendHooks) => {
      const sent = await post();
      const thread = threadOf(sent);
      hooks.accepted?.(thread, sent.messageId);
      await untilRouted(api, thread, sent.messageId);
      return sent;
    });
    return { ...result, printed };
  };
  return {
    open: (message, files) =>
      streamed(
        () => api.openThread(message, files),
        (opened) => opened.id,
      ),
    send: (id, message, files) =>
      streamed(
        () => api.sendMessage(id, message, files),
        () => id,
      ),
    get: (id) => api.thread(id),
  };
}

/** Resolves once thread `thread` has routed message `messageId` (see turnIn for when it throws). */
async function untilRouted(api: CairnApi, thread: string, messageId: string): Promise<void> {
  while (turnIn(await api.thread(thread), messageId).status === 'routing') await pause(ROUTING_POLL_MS);
}

/**
 * Message `messageId`'s turn in `view`. A thread that lost the message, or closed (terminated)
 * before the turn settled, is an error: that turn would be waited for for ever.
 */
export function turnIn(view: ThreadView, messageId: string): Turn {
  const turn = view.turns.find((t) => t.messageId === messageId);
  if (!turn) throw new Error(`thread ${view.id} has no message ${messageId}`);
  if (!turnSettled(turn) && view.status === 'closed')
    throw new Error(
      `thread ${view.id} closed (${view.closedReason ?? 'no reason given'}) before it answered ${messageId}`,
    );
  return turn;
}
