/**
 * What the front door's answers (routes/chat-completions.ts) say, streamed or not: the content
 * and `cairn` extension of what a turn came to — a settled turn's reply, a closed thread, what
 * waits for a person, or a turn still under way — and of the queued messages followed after an
 * answer; and how a request follows its turn.
 */
import { closedText, describeWaiting, settledText, type TurnOutcome } from '../follow-turn';
import { unfinishedText } from './client-timeout';
import type { CairnExtension } from './completion-objects';
import type { Delivered } from './deliver-message';
import { pendingQueuedText, queuedReplyText, type PendingQueued, type QueuedReply } from './follow-queued';

/** How often and until when a request follows its turn. */
export function followOptions(deps: { pollMs?: number }, signal: AbortSignal) {
  return { signal, ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}) };
}

/** A queued message followed after an answer: its part of the content (quoted) and its extension. */
export function queuedAnswer(answer: Delivered, reply: QueuedReply): { content: string; cairn: CairnExtension } {
  const ids = { thread: answer.thread, messageId: reply.messageId };
  const { content, cairn } = answerOf({ ...ids, cairn: ids }, reply.outcome);
  return { content: queuedReplyText(reply, content), cairn };
}

/** The pending queued messages' part of the content. */
export function pendingText(thread: string, pending: readonly PendingQueued[]): string {
  return pending.map((message) => pendingQueuedText(thread, message)).join('');
}

/** The content and extension of what the turn came to. */
export function answerOf(delivered: Delivered, outcome: TurnOutcome): { content: string; cairn: CairnExtension } {
  const turn = outcome.turn;
  const cairn: CairnExtension = {
    ...delivered.cairn,
    ...(turn?.disposition && delivered.cairn.disposition === undefined ? { disposition: turn.disposition } : {}),
    ...(turn?.kind ? { kind: turn.kind } : {}),
    ...(turn ? { status: turn.status } : {}),
    ...(turn?.agentId ? { agentId: turn.agentId } : {}),
    ...(turn?.error ? { error: turn.error } : {}),
  };
  if (outcome.kind === 'settled') return { content: settledText(outcome.turn), cairn };
  if (outcome.kind === 'closed')
    return { content: closedText(outcome.reason), cairn: { ...cairn, threadClosed: outcome.reason } };
  if (outcome.kind === 'waiting') {
    const interactions = outcome.interactions.map((i) => ({ ...i, agentId: outcome.agentId }));
    return { content: describeWaiting(outcome.agentId, outcome.interactions), cairn: { ...cairn, interactions } };
  }
  return { content: outcome.turn ? unfinishedText(delivered.thread, outcome.turn) : '', cairn };
}
