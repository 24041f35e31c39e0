/**
 * A replanned remainder under `confirmPlan` goes back to the plan check, saying what the replan
 * changed (added, removed, changed steps), so the person who confirmed one revision sees the next
 * before it runs: confirm runs it, edit runs the person's plan, revise asks the replanner again
 * with the feedback, cancel ends the agent. Runs recorded before this ran the remainder unchecked
 * (the patch).
 */
import { patched } from '@temporalio/workflow';
import { PATCHES } from '../../base/patches';
import { describeChanges, planChanges } from '../../model/plan/plan-changes';
import type { Plan } from '../../model/plan/plan-types';
import type { AgentRun } from '../agent-run';
import { adoptPlan, replan, type PlanPhaseEnd } from './plan-phase';
import { askPlanCheck } from './plan-check';

/** The replanned plan once checked; `before` is the plan the replan revised. */
export async function recheckReplan(run: AgentRun, before: Plan, after: Plan): Promise<PlanPhaseEnd> {
  const { settings, state } = run;
  let plan = after;
  if (!settings.mode.confirmPlan || settings.nested || plan === before) return { plan };
  if (!patched(PATCHES.replanRecheck)) return { plan };
  for (;;) {
    const changes = planChanges(before, plan);
    const prompt = `Check the revised plan (${describeChanges(changes)})`;
    const answer = await askPlanCheck(run, () => ({
      kind: 'plan.check',
      prompt,
      plan,
      revision: state.revision,
      changes,
    }));
    if (answer === 'roll-over') return answer;
    if (answer.decision === 'confirm') return { plan };
    if (answer.decision === 'cancel') return 'cancelled';
    if (answer.decision === 'edit' && answer.plan) {
      adoptPlan(run, answer.plan);
      return { plan: answer.plan };
    }
    plan = await replan(run, plan, answer.feedback);
  }
}
