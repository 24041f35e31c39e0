/**
 * A thread turn's fields of the agent input — `thread` (which thread it answers, whom it signals)
 * and `context` (the earlier turns' reusable steps and approvals) — are honoured only from the
 * thread itself: when the agent is the child `<thread id>/turn-<n>` of workflow `<thread id>`.
 * Started any other way (the Temporal UI, an SDK, a forged body) they are ignored and the
 * timeline says so: an approval nobody gave must not let a write run unasked, and a named thread
 * must not be signalled by an agent it never started. Reads only the run's own workflow info.
 */
import { workflowInfo } from '@temporalio/workflow';
import type { AgentSettings } from '../model/agent/agent-input';
import { threadTurnWorkflowId } from '../contract/thread-contract';

/** The settings to run with, and why a thread turn's fields were dropped, when they were. */
export interface TrustedSettings {
  settings: AgentSettings;
  ignored?: string;
}

/** `settings` as the agent may honour them: its thread's fields only when that thread started it as its turn. */
export function fromItsThread(settings: AgentSettings): TrustedSettings {
  const { thread, context, ...rest } = settings;
  if (thread === undefined && context === undefined) return { settings };
  const info = workflowInfo();
  const parent = info.parent?.workflowId;
  if (thread && parent === thread.id && info.workflowId === threadTurnWorkflowId(thread.id, thread.turn))
    return { settings };
  const fields = [thread ? 'thread' : undefined, context ? 'context' : undefined].filter((f) => f !== undefined);
  const started = parent === undefined ? 'not started by a thread' : `started by ${parent}`;
  const expected = thread ? `, not as turn ${threadTurnWorkflowId(thread.id, thread.turn)} of ${thread.id}` : '';
  const why = `input ${fields.join(' and ')} ignored: only a thread's own turn takes them (this agent was ${started}${expected}); earlier approvals and reusable steps do not apply`;
  return { settings: rest, ignored: why };
}
