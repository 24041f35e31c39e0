/**
 * A thread's phase machine, pure: what the thread is doing — `idle`, `routing` one message (a
 * chat reply written, or a task's agent started), running a task `turn`, or `closed` — and how
 * each event moves it; beside it, what a message that arrives during a turn becomes (its policy)
 * and where the messages a turn never heard go back in the queue. thread-run.ts keeps one phase
 * and one queue and moves the phase only through `nextPhase`; tested as plain functions.
 *
 * Steering runs one way: a message steered into the running turn is kept on the turn's phase;
 * when the turn ends, its result names the messages a step's model heard, and the others are
 * queued again, in message order, for the turns that follow (told `steered`, as their senders were).
 */
import { threadMessageId, type Disposition, type SendInput } from '../model/thread/thread-schemas';
import type { Sender } from '../model/tools/approval-reuse';
import { maySteer } from './steer-owner';
import type { TurnEnd } from './thread-task';

/** A message in the queue: `n` its number, `told` what its sender was told, once they were. */
export interface QueuedSend {
  n: number;
  sent: SendInput;
  told?: Disposition;
}

/** How a task turn ended: what the turn records, and the messages it heard (unknown when its agent failed). */
export interface TurnEnded {
  end: TurnEnd;
  heard?: readonly string[];
}

/** What the thread is doing; `A` is the running turn's agent handle. */
export type ThreadPhase<A> =
  | { name: 'idle' }
  | { name: 'routing'; n: number }
  | {
      name: 'turn';
      /** The message the turn runs. */
      n: number;
      agent: A;
      /** Who sent the turn's message (none: under nobody): they, or an admin, may steer it. */
      owner: Sender | undefined;
      /** The messages steered into it, oldest first. */
      steered: QueuedSend[];
      /** Set once its agent has ended; the main loop then settles the turn. */
      ended?: TurnEnded;
    }
  | { name: 'closed'; reason: string };

/** What moves the phase. */
export type PhaseEvent<A> =
  | { type: 'route'; n: number }
  | { type: 'answered' }
  | { type: 'started'; agent: A; owner: Sender | undefined }
  | { type: 'steered'; message: QueuedSend }
  | { type: 'ended'; ended: TurnEnded }
  | { type: 'settled' }
  | { type: 'close'; reason: string };

/** The phase after `event`; an event the phase cannot take is a bug, and throws. */
export function nextPhase<A>(phase: ThreadPhase<A>, event: PhaseEvent<A>): ThreadPhase<A> {
  switch (event.type) {
    case 'route':
      if (phase.name === 'idle') return { name: 'routing', n: event.n };
      break;
    case 'answered':
      if (phase.name === 'routing') return { name: 'idle' };
      break;
    case 'started':
      if (phase.name === 'routing')
        return { name: 'turn', n: phase.n, agent: event.agent, owner: event.owner, steered: [] };
      break;
    case 'steered':
      if (phase.name === 'turn' && !phase.ended) return { ...phase, steered: [...phase.steered, event.message] };
      break;
    case 'ended':
      if (phase.name === 'turn' && !phase.ended) return { ...phase, ended: event.ended };
      break;
    case 'settled':
      if (phase.name === 'turn' && phase.ended) return { name: 'idle' };
      break;
    case 'close':
      if (phase.name === 'idle') return { name: 'closed', reason: event.reason };
      break;
  }
  throw new Error(`thread phase ${phase.name} cannot take ${event.type}`);
}

/** What a message arriving while a turn runs becomes: its policy, and who may steer. */
export type PolicyOutcome = 'reject' | 'steer' | 'queue' | 'not-owner';

/** Message `sent`'s policy met against the running turn, owned by `owner`. */
export function policyOutcome(sent: SendInput, owner: Sender | undefined): PolicyOutcome {
  const policy = sent.policy ?? 'queue';
  if (policy === 'reject') return 'reject';
  if (policy !== 'steer') return 'queue';
  // Someone else's words must not run under the turn's sender: they become a turn of their own.
  return maySteer(sent, owner) ? 'steer' : 'not-owner';
}

/** The messages steered into an ended turn that nobody heard (all of them when its agent failed). */
export function unheard(steered: readonly QueuedSend[], ended: TurnEnded): QueuedSend[] {
  const { heard } = ended;
  return heard === undefined ? [...steered] : steered.filter((m) => !heard.includes(threadMessageId(m.n)));
}

/** `queue` with `messages` put back in message order, each told `steered`. */
export function requeue(queue: readonly QueuedSend[], messages: readonly QueuedSend[]): QueuedSend[] {
  const next = [...queue];
  for (const message of messages) {
    const at = next.findIndex((queued) => queued.n > message.n);
    next.splice(at === -1 ? next.length : at, 0, { ...message, told: 'steered' });
  }
  return next;
}
