/**
 * A plan's execution: the plan enters the walk (walk-loop.ts) as its graph (plan-as-graph.ts),
 * from where its steps' statuses stand, so a pass after a replan or a roll-over goes on where
 * the last stopped. What is the plan's own is two small policies — the order of ready steps
 * (longest remaining path first, ties in plan order) and when to replan (a completed step in the
 * plan's `replan` list, or every step under `replanAfter: each`, closes the walk and, once
 * running steps settle, asks for a replan) — and each step's input: its own description and the
 * results of the steps it depends on.
 */
import type { AgentSettings } from '../model/agent/agent-input';
import { planToGraph, planWalk } from '../model/plan-as-graph';
import type { Plan } from '../model/plan/plan-types';
import { longestPathFirst } from '../model/plan/scheduler';
import type { StepInput } from '../step/step-types';
import type { ToolInfo } from '../model/tools/tool-types';
import type { AgentRun } from './agent-run';
import { stepInputOf } from './run-step';
import { runWalk, type StepFailure, type WalkRules } from './walk-loop';

export type { StepFailure } from './walk-loop';

export type ExecutionOutcome =
  { kind: 'done' } | { kind: 'replan' } | { kind: 'roll-over' } | ({ kind: 'failed' } & StepFailure);

/** Runs the plan until every step settled, a replan is due, or a failure ends it. */
export async function executePlan(run: AgentRun, tools: ToolInfo[]): Promise<ExecutionOutcome> {
  const plan = run.state.plan;
  if (!plan) throw new Error('executePlan without a plan');
  const graph = planToGraph(plan);
  const { outcome } = await runWalk(run, graph, planWalk(graph, run.board.statuses()), planRules(run, plan, tools));
  switch (outcome.kind) {
    case 'failed':
    case 'replan':
    case 'roll-over':
      return outcome;
    default:
      // Every step settled (an end step completed, or failures cut the ends off): the plan is done.
      return { kind: 'done' };
  }
}

/** The plan's rules: its order of ready steps, when it replans, and its steps' inputs. */
function planRules(agent: AgentRun, plan: Plan, tools: ToolInfo[]): WalkRules {
  const { board, settings, state } = agent;
  return {
    order: longestPathFirst(plan),
    replanAfter: (id) => replanFollows(plan, id, settings, state.replans, board.hasPending()),
    step: ({ stepId }) => {
      const input = planStepInput(agent, plan, stepId, tools);
      return { input, summary: `${stepId} · ${input.step.title}` };
    },
    // The board is the plan's record: the state keeps no path.
    kept: (walk) => walk,
  };
}

/**
 * Whether step `id` completing asks for a replan: under `replanAfter: each` while steps remain
 * to revise; else when the plan lists it in `replan` and replans are left.
 */
function replanFollows(plan: Plan, id: string, settings: AgentSettings, replans: number, pending: boolean): boolean {
  if (settings.mode.replanAfter === 'each') return pending;
  return plan.replan.includes(id) && replans < settings.limits.maxReplans;
}

/** The input of step `id`: its own description and the results of the steps it depends on — nothing else. */
function planStepInput(run: AgentRun, plan: Plan, id: string, tools: ToolInfo[]): StepInput {
  const step = plan.steps.find((s) => s.id === id);
  if (!step) throw new Error(`no step ${id} in the plan`);
  const dependencies = step.depends_on.map((dep) => {
    const done = run.board.get(dep);
    return { id: dep, title: done?.title ?? dep, result: done?.result ?? '' };
  });
  return stepInputOf(run, plan.task || run.settings.task, step, dependencies, tools);
}
