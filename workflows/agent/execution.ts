/**
 * Execution: runs the plan's steps as child workflows. A step starts the moment all its
 * dependencies completed, up to `maxParallelSteps` at once, longest remaining path first. A
 * failed step is handled by the failure policy; a completed step in the plan's `replan` list
 * stops new starts and, once running steps settle, asks for a replan. When the server suggests
 * continue-as-new, new starts stop too and, once running steps settle, the agent rolls over to
 * a new run that goes on from here (steps are child workflows of this run: it must not close
 * under them).
 */
import { CancellationScope } from '@temporalio/workflow';
import type { ErrorCode } from '../contract/error-codes';
import type { Plan } from '../plan/plan-types';
import type { AgentSettings } from '../contract/agent-input';
import { selectStepsToStart } from '../plan/scheduler';
import type { StepOutcome } from '../step/step-types';
import type { ToolInfo } from '../tools/tool-types';
import type { AgentRun } from './agent-run';
import { runStep } from './run-step';
import { awaitChange } from './await-change';
import { startWithHeldSteers } from './agent-steer';
import type { SteerMessage } from '../contract/thread-contract';

/** Why execution ended the agent: the step whose failure did it, its code and its error. */
export interface StepFailure {
  stepId: string;
  code: ErrorCode;
  error: string;
}

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
  return new Execution(run, plan, tools).run();
}

/** One pass of execution over a plan; its fields are what the loop waits on. */
class Execution {
  private readonly scopes: Record<string, CancellationScope> = {};
  private readonly tasks: Promise<void>[] = [];
  /** A step settled since the loop last looked. */
  private changed = false;
  private failure: StepFailure | undefined;
  private replanDue = false;
  private rollOver = false;

  constructor(
    private readonly agent: AgentRun,
    private readonly plan: Plan,
    private readonly tools: ToolInfo[],
  ) {}

  async run(): Promise<ExecutionOutcome> {
    const { board, settings, hold } = this.agent;
    for (;;) {
      this.rollOver ||= board.hasPending() && this.agent.rollOverDue();
      const mayGoOn = this.failure === undefined && !this.replanDue && !this.rollOver;
      // While held (paused, over budget) no step starts; the loop wakes when the hold lifts.
      const held = hold.held();
      if (mayGoOn && !held) {
        const ids = selectStepsToStart(this.plan, board.statuses(), settings.limits.maxParallelSteps);
        startWithHeldSteers(this.agent, (steered) => ids.filter((id) => this.start(id, steered)));
      }
      if (!board.hasActive() && !(held && mayGoOn && board.hasPending())) break;
      await awaitChange(() => this.changed, hold, held, this.tasks);
      this.changed = false;
    }
    await Promise.all(this.tasks);
    if (this.failure !== undefined) return { kind: 'failed', ...this.failure };
    if (this.replanDue) return { kind: 'replan' };
    return this.rollOver && board.hasPending() ? { kind: 'roll-over' } : { kind: 'done' };
  }

  /** Starts step `id`, its first call hearing the `steered` messages held for it; false when it could not start. */
  private start(id: string, steered: SteerMessage[]): boolean {
    if (!this.agent.board.start(id)) return false;
    const scope = new CancellationScope();
    this.scopes[id] = scope;
    const task = scope
      .run(() => runStep(this.agent, this.plan, id, this.tools, steered))
      .then((outcome) => this.settle(id, outcome))
      .finally(() => void (this.changed = true));
    this.tasks.push(task);
    return true;
  }

  private async settle(id: string, outcome: StepOutcome): Promise<void> {
    const { board, settings, state } = this.agent;
    delete this.scopes[id];
    if (outcome.progress) this.agent.progress(outcome.progress);
    if (outcome.status === 'completed') {
      board.complete(id, outcome.result, outcome);
      if (replanFollows(this.plan, id, settings, state.replans, board.hasPending())) this.replanDue = true;
      return;
    }
    const cancelled = outcome.code === 'CANCELLED';
    board.end(id, cancelled ? 'cancelled' : 'failed', outcome.error);
    if (!cancelled && this.failure === undefined) await this.onFailed(id, outcome.code, outcome.error);
  }

  /** The failure policy: `fail` aborts, `continue` skips the dependents, `ask` lets a person decide. */
  private async onFailed(id: string, code: ErrorCode, error: string): Promise<void> {
    const { board, desk, settings } = this.agent;
    const policy = settings.onStepFailure;
    let decision: 'retry' | 'skip' | 'abort' = policy === 'fail' ? 'abort' : 'skip';
    if (policy === 'ask') {
      board.await(id);
      const title = board.get(id)?.title ?? id;
      const prompt = `Step "${title}" failed. Retry, skip or abort?`;
      ({ decision } = await desk.ask<'step.failure'>({ kind: 'step.failure', prompt, error }, id));
      board.decide(id, decision);
    }
    if (decision === 'retry') return;
    if (decision === 'abort') {
      this.failure = { stepId: id, code, error: `step ${id} failed: ${error}` };
      for (const scope of Object.values(this.scopes)) scope.cancel();
      return;
    }
    board.skipDependents(this.plan, id);
  }
}
