/**
 * What becomes of a message that arrives while a task turn runs (or earlier messages wait): its
 * policy decides — `queue` (the default: the next turn once the running one ends), `reject`, or
 * `steer` (handed to the running agent's steps; queued once that agent said it starts no more
 * steps) — and the turn records the outcome its sender is told. Only the running turn's sender or
 * an admin steers (steer-owner.ts): anyone else's steer is queued as their own turn, and their
 * answer says why (`STEER_NOT_OWNER`). A steered message the agent
 * could not take after all (it summarised or ended before the message reached it: it hands the
 * message back, or the signal finds it closed) is queued as a next turn.
 */
import { setHandler } from '@temporalio/workflow';
import {
  steerClosedSchema,
  steerClosedSignal,
  steerReturnedSchema,
  steerReturnedSignal,
  steerSignal,
  type Disposition,
  type SendInput,
  type SendResult,
  type Turn,
} from '../contract/thread-contract';
import type { TurnAgent } from './thread-task';
import type { Sender } from '../tools/approval-reuse';
import { maySteer } from './steer-owner';

/** A message waiting for the next turn; `told` what its sender was told, when not `queued`. */
export interface QueuedSend {
  n: number;
  sent: SendInput;
  told?: Disposition;
}

/** The part of a thread run a policy acts on: its running turn's agent, its queue and its turns. */
export interface PolicyTarget {
  running: TurnAgent | undefined;
  /** Who sent the running turn's message (none: under nobody): who may steer it, besides an admin. */
  runningOwner?: Sender | undefined;
  readonly queue: QueuedSend[];
  readonly turns: readonly Turn[];
  /** The agent that said it starts no more steps (`steerClosed`): steering it reaches nobody. */
  steerClosed?: string;
  /** The messages steered into the running turn's agent, by message id, until it may hand one back. */
  readonly steered: Map<string, { n: number; sent: SendInput }>;
}

/** Registers the handlers of the running turn's agent's signals: `steerClosed` and `steerReturned`. */
export function serveSteerClosed(run: PolicyTarget): void {
  setHandler(steerClosedSignal, (raw) => {
    const parsed = steerClosedSchema.safeParse(raw);
    if (parsed.success) run.steerClosed = parsed.data.agentId;
  });
  setHandler(steerReturnedSignal, (raw) => {
    const parsed = steerReturnedSchema.safeParse(raw);
    if (parsed.success) requeueSteered(run, parsed.data.messageId, parsed.data.agentId);
  });
}

/** Meets message `n`'s policy; the turn and the sender's answer say which happened. */
export function meetPolicy(run: PolicyTarget, turn: Turn, n: number, sent: SendInput): SendResult {
  const policy = sent.policy ?? 'queue';
  if (policy === 'reject') return settle(turn, { disposition: 'rejected', status: 'rejected' });
  // An agent past its steps (it summarises) would hear nobody: the message waits for the next turn.
  const running = run.running !== undefined && run.steerClosed !== run.running.workflowId ? run.running : undefined;
  // Someone else's words must not run under the turn's sender: they become a turn of their own.
  if (policy === 'steer' && running && !maySteer(sent, run.runningOwner)) {
    run.queue.push({ n, sent });
    return { ...settle(turn, { disposition: 'queued', status: 'queued' }), reason: 'STEER_NOT_OWNER' };
  }
  if (policy === 'steer' && running) {
    const agentId = running.workflowId;
    run.steered.set(turn.messageId, { n, sent });
    const message = { text: sent.text, ...(turn.by ? { by: turn.by } : {}), messageId: turn.messageId };
    // An agent that ended in the meantime cannot take it: the next turn does (runs before dropped it).
    void running.signal(steerSignal, message).catch(() => requeueSteered(run, turn.messageId, agentId));
    return settle(turn, { disposition: 'steered', status: 'delivered', agentId });
  }
  run.queue.push({ n, sent });
  return settle(turn, { disposition: 'queued', status: 'queued' });
}

/**
 * Queues a message steered into agent `agentId` that it could not take, in message order (its
 * sender was told `steered`, which its turn keeps); whether it did. A message the thread no
 * longer holds for that agent (handed back twice, or after the next turn started) is left as it is.
 */
export function requeueSteered(run: PolicyTarget, messageId: string, agentId: string): boolean {
  const held = run.steered.get(messageId);
  const turn = run.turns.find((t) => t.messageId === messageId);
  if (!held || turn?.status !== 'delivered' || turn.agentId !== agentId) return false;
  run.steered.delete(messageId);
  Object.assign(turn, { status: 'queued' });
  delete turn.agentId;
  const at = run.queue.findIndex((queued) => queued.n > held.n);
  run.queue.splice(at === -1 ? run.queue.length : at, 0, { ...held, told: 'steered' });
  return true;
}

/** Records what became of a turn; the answer its sender gets. */
export function settle(turn: Turn, change: Partial<Turn> & Pick<Turn, 'disposition'>): SendResult {
  Object.assign(turn, change);
  return { messageId: turn.messageId, disposition: change.disposition ?? 'queued' };
}
