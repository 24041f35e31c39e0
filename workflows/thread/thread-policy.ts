/**
 * What becomes of a message that arrives while a task turn runs: its policy decides
 * (thread-phase.ts) — `queue` (the default: the next turn once the running one ends), `reject`,
 * or `steer` (signalled to the running agent, which passes it to its steps) — and the turn
 * records the outcome its sender is told. Only the running turn's sender or an admin steers
 * (steer-owner.ts): anyone else's steer is queued as their own turn, and their answer says why
 * (`STEER_NOT_OWNER`). A steered message nobody heard is queued again when the turn ends
 * (thread-run.ts): nothing comes back by signal, so a signal that finds the agent ended needs
 * nothing either.
 */
import { steerSignal, type SendResult, type Turn } from '../contract/thread-contract';
import { policyOutcome, type QueuedSend } from './thread-phase';
import type { TurnAgent } from './thread-task';
import type { Sender } from '../model/tools/approval-reuse';

/** What meeting a message's policy did: whether it waits in the queue, and its sender's answer. */
export interface Met {
  waits: boolean;
  steered: boolean;
  result: SendResult;
}

/** Meets `message`'s policy against the running turn's `agent`, sent by `owner`; `turn` records the outcome. */
export function meetPolicy(turn: Turn, message: QueuedSend, agent: TurnAgent, owner: Sender | undefined): Met {
  switch (policyOutcome(message.sent, owner)) {
    case 'reject':
      return { waits: false, steered: false, result: settle(turn, { disposition: 'rejected', status: 'rejected' }) };
    case 'not-owner': {
      const result = settle(turn, { disposition: 'queued', status: 'queued' });
      return { waits: true, steered: false, result: { ...result, reason: 'STEER_NOT_OWNER' } };
    }
    case 'queue':
      return { waits: true, steered: false, result: settle(turn, { disposition: 'queued', status: 'queued' }) };
    case 'steer': {
      const agentId = agent.workflowId;
      const steer = { text: message.sent.text, ...(turn.by ? { by: turn.by } : {}), messageId: turn.messageId };
      // An agent that ended meanwhile never hears it: its result does not name it, so it is queued again.
      void agent.signal(steerSignal, steer).catch(() => undefined);
      const result = settle(turn, { disposition: 'steered', status: 'delivered', agentId });
      return { waits: false, steered: true, result };
    }
  }
}

/** Records what became of a turn; the answer its sender gets. */
export function settle(turn: Turn, change: Partial<Turn> & Pick<Turn, 'disposition'>): SendResult {
  Object.assign(turn, change);
  return { messageId: turn.messageId, disposition: change.disposition ?? 'queued' };
}

/** A steered message nobody heard, queued again: its turn waits (its sender was told `steered`, which it keeps). */
export function backInQueue(turn: Turn): void {
  Object.assign(turn, { status: 'queued' });
  delete turn.agentId;
}

/** A message as its `send` handler put it in the queue, with the answer that handler waits for. */
export interface Arrival extends QueuedSend {
  answer?: { result: SendResult } | { failure: unknown };
}

/** Gives a waiting `send` its answer, once. */
export function answer(message: QueuedSend, given: NonNullable<Arrival['answer']>): void {
  const arrival: Arrival = message;
  if (arrival.answer === undefined) arrival.answer = given;
}
