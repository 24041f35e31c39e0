/** The loop-guard decisions on an agent's timeline: what the verdict and the react agent's retry look for. */
import type { AgentRun } from './stand-in';

/**
 * What a loop guard says on the timeline (a `step.guard` event) when it acts — the texts of
 * workflows/step/loop-guards.ts and call-approval.ts: a call refused (over the per-reply cap, or
 * an identical call made too often), a step ended for its failed calls, an approval not asked
 * again. A step's other notes (a tool call written as text) are not a loop guard acting.
 */
const LOOP_GUARD_ACTED = /not run: |failed tool calls \(the limit is|, not asked again/;

/** The loop-guard decisions on an agent's timeline. */
export function loopGuardNotes(run: AgentRun): string[] {
  return (run.state?.events ?? [])
    .filter((e) => e.type === 'step.guard' && LOOP_GUARD_ACTED.test(e.message))
    .map((e) => e.message);
}
