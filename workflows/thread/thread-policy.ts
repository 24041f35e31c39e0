/**
 * What becomes of a message that arrives while a task turn runs (or earlier messages wait): its
 * policy decides — `queue` (the default: the next turn once the running one ends), `reject`, or
 * `steer` (handed to the running agent's steps; queued once that agent said it starts no more
 * steps) — and the turn records the outcome its sender is told.
 */
import { setHandler } from '@temporalio/workflow';
import {
  steerClosedSchema,
  steerClosedSignal,
  steerSignal,
  type SendInput,
  type SendResult,
  type Turn,
} from '../contract/thread-contract';
import type { TurnAgent } from './thread-task';

/** The part of a thread run a policy acts on: its running turn's agent and its queue. */
export interface PolicyTarget {
  running: TurnAgent | undefined;
  readonly queue: { n: number; sent: SendInput }[];
  /** The agent that said it starts no more steps (`steerClosed`): steering it reaches nobody. */
  steerClosed?: string;
}

/** Registers the `steerClosed` handler of `run`. */
export function serveSteerClosed(run: PolicyTarget): void {
  setHandler(steerClosedSignal, (raw) => {
    const parsed = steerClosedSchema.safeParse(raw);
    if (parsed.success) run.steerClosed = parsed.data.agentId;
  });
}

/** Meets message `n`'s policy; the turn and the sender's answer say which happened. */
export function meetPolicy(run: PolicyTarget, turn: Turn, n: number, sent: SendInput): SendResult {
  const policy = sent.policy ?? 'queue';
  if (policy === 'reject') return settle(turn, { disposition: 'rejected', status: 'rejected' });
  // An agent past its steps (it summarises) would hear nobody: the message waits for the next turn.
  if (policy === 'steer' && run.running !== undefined && run.steerClosed !== run.running.workflowId) {
    // An agent that ended in the meantime cannot take it: the turn still says it was delivered.
    void run.running
      .signal(steerSignal, { text: sent.text, ...(turn.by ? { by: turn.by } : {}) })
      .catch(() => undefined);
    return settle(turn, { disposition: 'steered', status: 'delivered', agentId: run.running.workflowId });
  }
  run.queue.push({ n, sent });
  return settle(turn, { disposition: 'queued', status: 'queued' });
}

/** Records what became of a turn; the answer its sender gets. */
export function settle(turn: Turn, change: Partial<Turn> & Pick<Turn, 'disposition'>): SendResult {
  Object.assign(turn, change);
  return { messageId: turn.messageId, disposition: change.disposition ?? 'queued' };
}
