/**
 * Execution of a plan: the one walk loop (walk-loop.ts) under the plan's policy. A step starts
 * the moment all its dependencies completed, longest remaining path first; a failed step's
 * dependents are skipped when the failure policy skips it; a completed step in the plan's
 * `replan` list (or every step, under `replanAfter: each`) closes the walk and, once running
 * steps settle, asks for a replan.
 */
import type { Plan } from '../plan/plan-types';
import type { AgentSettings } from '../contract/agent-input';
import { selectStepsToStart } from '../plan/scheduler';
import type { ToolInfo } from '../tools/tool-types';
import type { AgentRun } from './agent-run';
import { runStep } from './run-step';
import { startWithHeldSteers } from './agent-steer';
import { runWalk, type StepFailure, type WalkLoop, type WalkPolicy } from './walk-loop';

export type { StepFailure } from './walk-loop';

export type ExecutionOutcome =
  { kind: 'done' } | { kind: 'replan' } | { kind: 'roll-over' } | ({ kind: 'failed' } & StepFailure);

/**
 * Whether step `id` completing asks for a replan: under `replanAfter: each` while steps remain
 * to revise; else when the plan lists it in `replan` and replans are left.
 */
function replanFollows(plan: Plan, id: string, settings: AgentSettings, replans: number, pending: boolean): boolean {
  if (settings.mode.replanAfter === 'each') return pending;
  return plan.replan.includes(id) && replans < settings.limits.maxReplans;
}

/** Runs the plan until every step settled, a replan is due, or a failure ends it. */
export function executePlan(run: AgentRun, tools: ToolInfo[]): Promise<ExecutionOutcome> {
  const plan = run.state.plan;
  if (!plan) throw new Error('executePlan without a plan');
  return runWalk(run, planPolicy(run, plan, tools));
}

/** The plan's two decisions — what starts next, and when to replan — and its failure handling. */
function planPolicy(agent: AgentRun, plan: Plan, tools: ToolInfo[]): WalkPolicy<ExecutionOutcome> {
  const { board, settings, state } = agent;
  let replanDue = false;
  return {
    leftToRun: () => board.hasPending(),
    open: () => !replanDue,
    startReady(loop: WalkLoop<ExecutionOutcome>) {
      const ids = selectStepsToStart(plan, board.statuses(), settings.limits.maxParallelSteps);
      startWithHeldSteers(agent, (steered) =>
        ids.filter((id) => loop.launch(id, () => runStep(agent, plan, id, tools, steered))),
      );
    },
    running: () => board.hasActive(),
    waiting: () => board.hasPending(),
    completed(_loop, id) {
      if (replanFollows(plan, id, settings, state.replans, board.hasPending())) replanDue = true;
      return Promise.resolve();
    },
    dropped: () => undefined,
    failurePrompt: (id) => `Step "${board.get(id)?.title ?? id}" failed. Retry, skip or abort?`,
    // A retried step is pending again: the loop starts it when it next looks.
    decided(_loop, id, decision) {
      if (decision === 'skip') board.skipDependents(plan, id);
    },
    outcome(failure, rolledOver) {
      if (failure !== undefined) return { kind: 'failed', ...failure };
      if (replanDue) return { kind: 'replan' };
      return rolledOver && board.hasPending() ? { kind: 'roll-over' } : { kind: 'done' };
    },
  };
}
