/**
 * After the front door answers a running turn's open question, the messages that were queued
 * behind that turn still owe their senders a reply: their own requests ended when the question
 * was put ("the agent is waiting for you"). So the answer's response goes on with them — once
 * the answered turn settled, each message queued behind it when the answer came is followed in
 * turn, oldest first, until one waits for a person, the thread closes, or all have settled — and
 * each one's reply follows the turn's answer under a quote of its message.
 */
import { followTurn, type FollowTurnOptions, type TurnOutcome, type TurnPorts } from '../follow-turn';
import type { Turn } from '../../../workflows/contract/thread-contract';
import type { CairnExtension } from './completion-objects';

/** A message queued behind the answered turn. */
export interface QueuedMessage {
  messageId: string;
  text: string;
}

/** What became of one queued message. */
export interface QueuedReply extends QueuedMessage {
  outcome: Exclude<TurnOutcome, { kind: 'aborted' }>;
}

/**
 * A queued message whose reply the response could not wait for — the request had to answer
 * before its client's timeout, or a turn before it waits for a person — with its turn's status
 * as last read: its reply will be in the thread.
 */
export interface PendingQueued extends QueuedMessage {
  status: string;
  agentId?: string;
}

/** The most of a queued message its quote shows. */
const QUOTED_CHARS = 100;

/** The messages queued in `turns`, oldest first. */
export function queuedMessages(turns: readonly Turn[]): QueuedMessage[] {
  return turns.filter((t) => t.status === 'queued').map(({ messageId, text }) => ({ messageId, text }));
}

export interface FollowQueuedOptions extends Omit<FollowTurnOptions, 'onProgress'> {
  /** Told each change of a queued message's turn. */
  onProgress?: (messageId: string, progress: { status: string; agentId?: string }) => void;
  /** Told each queued message's outcome as it comes. */
  onReply?: (reply: QueuedReply) => Promise<void>;
}

/**
 * Follows `queued` once `answered` (the answered turn's outcome) settled, oldest first, while
 * each settles; the outcomes so far (fewer when the caller went away or the thread could not be
 * read: what was gathered is not thrown away for a later failure).
 */
export async function followQueued(
  ports: TurnPorts,
  thread: string,
  queued: readonly QueuedMessage[],
  answered: TurnOutcome,
  options: FollowQueuedOptions = {},
): Promise<QueuedReply[]> {
  const replies: QueuedReply[] = [];
  let last = answered;
  for (const message of queued) {
    if (last.kind !== 'settled') break;
    const { onProgress, onReply, ...follow } = options;
    try {
      last = await followTurn(ports, thread, message.messageId, {
        ...follow,
        ...(onProgress ? { onProgress: (progress) => onProgress(message.messageId, progress) } : {}),
      });
    } catch {
      break; // the thread could not be read: the answer and the replies so far still go out
    }
    if (last.kind === 'aborted') break;
    const reply = { ...message, outcome: last };
    replies.push(reply);
    await onReply?.(reply);
  }
  return replies;
}

/**
 * The messages of `queued` that `replies` does not answer, each with its turn's status in
 * `turns` (the thread as last read; `queued` when the turn is not found there).
 */
export function pendingQueued(
  queued: readonly QueuedMessage[],
  replies: readonly QueuedReply[],
  turns: readonly Turn[],
): PendingQueued[] {
  const answered = new Set(replies.map((reply) => reply.messageId));
  return queued
    .filter((message) => !answered.has(message.messageId))
    .map((message) => {
      const turn = turns.find((t) => t.messageId === message.messageId);
      return { ...message, status: turn?.status ?? 'queued', ...(turn?.agentId ? { agentId: turn.agentId } : {}) };
    });
}

/**
 * The messages of `queued` that `replies` does not answer, with their turns' statuses as the
 * thread says now (`queued` for each when it cannot be read: the response still goes out).
 */
export async function stillPending(
  ports: TurnPorts,
  thread: string,
  queued: readonly QueuedMessage[],
  replies: readonly QueuedReply[],
): Promise<PendingQueued[]> {
  if (queued.length === replies.length) return [];
  const turns = await ports.threads.get(thread).then(
    (view) => view.turns,
    () => [],
  );
  return pendingQueued(queued, replies, turns);
}

/** A pending queued message's part of the content: its quote, and where its reply will be. */
export function pendingQueuedText(threadId: string, message: PendingQueued): string {
  const agent = message.agentId ? `, agent ${message.agentId}` : '';
  return queuedReplyText(
    message,
    `Not answered yet (its turn is ${message.status}${agent}). Its reply will be in thread ${threadId}.`,
  );
}

/** A queued message's part of the content: a quote of the message, then `content` (what became of it). */
export function queuedReplyText(message: QueuedMessage, content: string): string {
  const text = message.text.replace(/\s+/g, ' ').trim();
  const quoted = text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
  return `\n\n> ${quoted}\n\n${content}`;
}

/**
 * The extension once queued messages were followed: the answered turn's, with `queued` (each
 * queued message's status, the replied ones first, then the `pending`) and, when the last
 * replied one waits or its thread closed, what it says.
 */
export function withQueued(
  cairn: CairnExtension,
  replies: readonly QueuedReply[],
  lastCairn?: CairnExtension,
  pending: readonly PendingQueued[] = [],
) {
  if (replies.length === 0 && pending.length === 0) return cairn;
  const queued = [
    ...replies.map(({ messageId, outcome: { turn } }) => ({
      messageId,
      status: turn.status,
      ...(turn.kind ? { kind: turn.kind } : {}),
      ...(turn.agentId ? { agentId: turn.agentId } : {}),
      ...(turn.error ? { error: turn.error } : {}),
    })),
    ...pending.map(({ messageId, status, agentId }) => ({ messageId, status, ...(agentId ? { agentId } : {}) })),
  ];
  const { interactions, threadClosed } = lastCairn ?? {};
  return {
    ...cairn,
    queued,
    ...(interactions ? { interactions } : {}),
    ...(threadClosed ? { threadClosed } : {}),
  } satisfies CairnExtension;
}
