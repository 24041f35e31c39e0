/**
 * The wait of the loops that run an agent's steps (execution.ts) and a graph's visits
 * (graph/graph-execution.ts): until a running task reports a change or the agent's hold flips.
 * Cancelled while waiting (a stop, a cancel), the running tasks get the cancellation too: it
 * waits, uncancellable, for them to report — so the state keeps what finished and marks the rest
 * cancelled — then rethrows.
 */
import { CancellationScope, condition, isCancellation } from '@temporalio/workflow';
import type { AgentHold } from './agent-hold';

export async function awaitChange(
  changed: () => boolean,
  hold: Pick<AgentHold, 'held'>,
  held: boolean,
  tasks: readonly Promise<unknown>[],
): Promise<void> {
  try {
    await condition(() => changed() || hold.held() !== held);
  } catch (err) {
    if (isCancellation(err)) await CancellationScope.nonCancellable(() => Promise.all(tasks));
    throw err;
  }
}
