/**
 * A thread in the Temporal UI: its current details (model/thread/thread-details.ts) from its
 * phase, turns and title — set by the main loop on every pass, so they follow each turn.
 */
import { setCurrentDetails } from '@temporalio/workflow';
import type { Turn } from '../contract/thread-contract';
import { threadMessageId } from '../contract/thread-contract';
import { threadDetails, type ThreadActivity } from '../model/thread/thread-details';
import { mechanicalTitle } from '../model/thread/thread-view';
import type { ThreadPhase } from './thread-phase';

/** What a phase says the thread is doing. */
export function activityOf(phase: ThreadPhase<{ workflowId: string }>): ThreadActivity {
  switch (phase.name) {
    case 'turn':
      return { name: 'turn', messageId: threadMessageId(phase.n), agentId: phase.agent.workflowId };
    case 'routing':
      return { name: 'routing', messageId: threadMessageId(phase.n) };
    case 'closed':
      return { name: 'closed', reason: phase.reason };
    case 'idle':
      return { name: 'idle' };
  }
}

/** Sets the thread's current details; untitled, it goes by its first message. */
export function showThreadDetails(
  phase: ThreadPhase<{ workflowId: string }>,
  turns: readonly Turn[],
  title: string | undefined,
): void {
  const named = title ?? mechanicalTitle(turns[0]?.text ?? '');
  setCurrentDetails(threadDetails(named || 'thread', turns, activityOf(phase)));
}
