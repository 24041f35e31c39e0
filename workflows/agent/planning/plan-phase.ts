/**
 * Planning, start to finish: the first plan (planner calls, then — for a top-level agent with
 * `confirmPlan` — the human plan check: confirm, revise, edit or cancel), each replan after a
 * step asks for one, and the one-step plan of ReAct mode. Every plan that becomes current goes
 * through `adoptPlan`: the revision grows and settled step runs are kept.
 */
import { ApplicationFailure, patched } from '@temporalio/workflow';
import type { Plan } from '../../model/plan/plan-types';
import type { ToolInfo } from '../../model/tools/tool-types';
import { PLANNER } from '../../model/agent/agent-carry';
import type { AgentRun } from '../agent-run';
import { plannerSystemPrompt, plannerTurnMessage, planRevisionMessage, replanMessage } from '../../model/agent/prompts';
import { parsePlanOutput, parseReplanOutput } from '../../model/plan/check-plan';
import { MAX_BAD_PLANS, obtainPlan } from './planner-calls';
import { PATCHES } from '../../base/patches';
import { describeChanges, planChanges } from '../../model/plan/plan-changes';
import { assessTask } from './assess-task';
import { askPlanCheck } from './plan-check';

/** How planning ended: a plan to run, a cancel at the plan check, or a roll-over while it waits. */
export type PlanPhaseEnd = { plan: Plan } | 'cancelled' | 'roll-over';

/**
 * The plan to run. `resuming` (a continued run that was waiting at the plan check) skips the
 * planner: the plan and its open check come from the previous run.
 */
export async function planTask(run: AgentRun, tools: ToolInfo[], resuming: boolean): Promise<PlanPhaseEnd> {
  const { settings, state } = run;
  if (!settings.mode.plan) {
    const plan = reactPlan(settings.task);
    adoptPlan(run, plan);
    return { plan };
  }
  // Judged simple, the task runs as one step (judged once: a continued run has the judgement).
  const complexity = settings.mode.assess && !state.assessment ? await assessTask(run) : state.assessment?.complexity;
  if (complexity === 'simple' && !state.plan) {
    const plan = reactPlan(settings.task);
    adoptPlan(run, plan);
    return { plan };
  }
  // A thread's turn: the earlier turns' finished steps its plan may adopt (`reuse`).
  const reusable = settings.context?.reusable ?? [];
  let plan: Plan;
  if (resuming && state.plan) {
    plan = state.plan;
  } else {
    run.conversations.append(
      PLANNER,
      { role: 'system', content: plannerSystemPrompt(tools, settings.mode.ask, settings.systemPrompt, run.prompts) },
      { role: 'user', content: plannerTurnMessage(settings.task, settings.files, reusable, run.prompts) },
    );
    plan = await obtainPlan(run, 'plan', (content) => parsePlanOutput(content, reusable));
    adoptPlan(run, plan);
  }
  while (settings.mode.confirmPlan && !settings.nested) {
    const answer = await askPlanCheck(run, () => ({
      kind: 'plan.check',
      prompt: 'Check the plan',
      plan,
      revision: state.revision,
    }));
    if (answer === 'roll-over') return answer;
    if (answer.decision === 'confirm') break;
    if (answer.decision === 'cancel') return 'cancelled'; // the agent's end (agent-ending.ts) records it
    if (answer.decision === 'edit' && answer.plan) {
      // The human wrote this plan: it needs no second check.
      adoptPlan(run, answer.plan);
      return { plan: answer.plan };
    }
    run.setPhase('planning');
    run.conversations.append(PLANNER, { role: 'user', content: planRevisionMessage(answer.feedback ?? '') });
    plan = await obtainPlan(run, 'plan', (content) => parsePlanOutput(content, reusable));
    adoptPlan(run, plan);
  }
  return { plan };
}

/** Asks the planner for the remaining steps, keeping the settled ones. */
export async function replan(run: AgentRun, plan: Plan, feedback?: string): Promise<Plan> {
  const { state } = run;
  run.setPhase('replanning');
  state.replans += 1;
  run.event({ type: 'replan', message: `replan ${state.replans}` });
  const settled = state.steps.filter((s) => s.status !== 'pending');
  const kept = settled.map((s) => s.id);
  const results = settled.map((s) => ({ id: s.id, title: s.title, status: s.status, result: s.result }));
  const asked = replanMessage(plan, results);
  const content = feedback ? `${asked}\n\nThe person checking the plan asks: ${feedback}` : asked;
  run.conversations.append(PLANNER, { role: 'user', content });
  const keptIdsRepeat = patched(PATCHES.replanDropsKeptIds) ? 'drop' : 'refuse';
  let next: Plan;
  try {
    const reusable = run.settings.context?.reusable;
    next = await obtainPlan(run, 'replan', (c) => parseReplanOutput(plan, kept, c, keptIdsRepeat, reusable));
  } catch (err) {
    // Finished work must not be lost to a replanner that cannot produce a plan: go on as planned.
    if (!(err instanceof ApplicationFailure && err.type === 'PLAN_INVALID') || !patched(PATCHES.replanKeepsPlan))
      throw err;
    const remaining = plan.steps.filter((s) => !kept.includes(s.id)).map((s) => s.id);
    run.event({
      type: 'plan.kept',
      message:
        `the replanner gave ${MAX_BAD_PLANS} unusable replies: the current plan stays, ` +
        (remaining.length ? `remaining steps as they were (${remaining.join(', ')})` : 'with no steps left'),
    });
    return plan;
  }
  adoptPlan(run, next);
  if (run.settings.mode.replanAfter === 'each')
    run.event({
      type: 'plan.updated',
      message: `plan r${state.revision}: ${describeChanges(planChanges(plan, next))}`,
    });
  return next;
}

/** Makes `plan` current: the revision grows, settled step runs are kept, the timeline says so. */
export function adoptPlan(run: AgentRun, plan: Plan): void {
  const { state } = run;
  state.plan = plan;
  state.revision += 1;
  run.board.adopt(plan, run.settings.context?.reusable);
  run.event({
    type: state.revision === 1 ? 'plan.created' : 'plan.revised',
    message: `plan r${state.revision}: ${plan.steps.map((s) => s.id).join(', ')}`,
  });
}

/** ReAct mode: the whole task as one step. */
function reactPlan(task: string): Plan {
  const title = task.length > 80 ? `${task.slice(0, 77)}...` : task;
  return { task, language: 'en', steps: [{ id: 'task', title, description: task, depends_on: [] }], replan: [] };
}
