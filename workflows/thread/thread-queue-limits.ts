/**
 * How many messages may wait in a thread: queued behind a running turn, or recorded and not yet
 * routed. Each waiting message is a turn the `thread` query shows and, later, a turn that runs;
 * without a bound one sender could queue hundreds of long messages, grow the query's answer past
 * what the server passes back, and have every one of them run. The `send` validator refuses a
 * message past either bound with `QUEUE_FULL` before anything is recorded. Pure.
 */
import { workflowFailure } from '../contract/failures';
import type { SendInput, Turn } from '../contract/thread-contract';

/** Messages that may wait in one thread at once (docs/contracts.md#threads). */
export const MAX_WAITING_PER_THREAD = 20;

/** Messages that may wait in one thread at once from one sender (docs/contracts.md#threads). */
export const MAX_WAITING_PER_SENDER = 5;

/** A turn that waits: queued, or recorded and not yet routed (or being routed). */
const waiting = (turn: Turn): boolean => turn.status === 'queued' || turn.status === 'routing';

/** Throws `QUEUE_FULL` when `sent` would be one message too many waiting in a thread of `turns`. */
export function checkQueueRoom(turns: readonly Turn[], sent: Pick<SendInput, 'actor' | 'by'>): void {
  const waits = turns.filter(waiting);
  if (waits.length >= MAX_WAITING_PER_THREAD)
    throw workflowFailure(
      'QUEUE_FULL',
      `${waits.length} messages already wait in this thread (at most ${MAX_WAITING_PER_THREAD}); send again once some have run`,
    );
  // The sender as the turn records it: the principal's id, else the unauthenticated `by`.
  const by = sent.actor?.id ?? sent.by;
  const own = waits.filter((turn) => turn.by === by).length;
  if (own >= MAX_WAITING_PER_SENDER)
    throw workflowFailure(
      'QUEUE_FULL',
      `${own} of your messages already wait in this thread (at most ${MAX_WAITING_PER_SENDER}); send again once some have run`,
    );
}
