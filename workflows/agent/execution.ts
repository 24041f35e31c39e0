/**
 * Execution (DESIGN §4.3, §4.6, §4.7): runs the plan's steps as child workflows. A step starts
 * the moment all its dependencies completed, up to `maxParallelSteps` at once, longest
 * remaining path first. A failed step is handled by the failure policy; a completed step in
 * the plan's `replan` list stops new starts and, once running steps settle, asks for a replan.
 * When the server suggests continue-as-new, new starts stop too and, once running steps
 * settle, the agent rolls over to a new run that goes on from here (steps are child
 * workflows of this run: it must not close under them).
 */
import { CancellationScope, ChildWorkflowFailure, condition, executeChild, isCancellation } from '@temporalio/workflow';
import { selectStepsToStart, stepsToSkip } from '../plan/scheduler';
import type { Plan } from '../plan/plan-types';
import { stepWorkflow } from '../step/step-workflow';
import type { StepInput, StepOutcome } from '../step/step-types';
import type { ToolInfo } from '../tools/tool-types';
import type { AgentRun } from './agent-run';
import { stepRun, stepStatuses, type StepRun } from './agent-state';
import { workflowTime } from '../workflow-time';

export type ExecutionOutcome =
  { kind: 'done' } | { kind: 'replan' } | { kind: 'roll-over' } | { kind: 'failed'; error: string };

/** Runs the plan until every step settled, a replan is due, or a failure ends it. */
export async function executePlan(run: AgentRun, tools: ToolInfo[]): Promise<ExecutionOutcome> {
  const plan = run.state.plan;
  if (!plan) throw new Error('executePlan without a plan');
  const scopes: Record<string, CancellationScope> = {};
  const tasks: Promise<void>[] = [];
  let changed = false;
  let failure: string | undefined;
  let replanDue = false;
  let rollOver = false;

  const onFailed = async (step: StepRun, error: string): Promise<void> => {
    const policy = run.settings.onStepFailure;
    let decision: 'retry' | 'skip' | 'abort' = policy === 'fail' ? 'abort' : 'skip';
    if (policy === 'ask') {
      step.status = 'waiting';
      const answer = await run.ask(
        { kind: 'step.failure', prompt: `Step "${step.title}" failed. Retry, skip or abort?`, error },
        step.id,
      );
      decision =
        'decision' in answer && (answer.decision === 'retry' || answer.decision === 'skip') ? answer.decision : 'abort';
    }
    if (decision === 'retry') return void (step.status = 'pending');
    step.status = policy === 'ask' && decision === 'skip' ? 'skipped' : 'failed';
    if (decision === 'abort') {
      failure = `step ${step.id} failed: ${error}`;
      for (const scope of Object.values(scopes)) scope.cancel();
      return;
    }
    for (const id of stepsToSkip(plan, stepStatuses(run.state))) {
      const skipped = stepRun(run.state, id);
      if (skipped) skipped.status = 'skipped';
      run.event({ type: 'step.finished', stepId: id, message: `${id} skipped: it depends on ${step.id}` });
    }
  };

  const start = (id: string): void => {
    const step = stepRun(run.state, id);
    if (!step) return;
    step.status = 'running';
    step.attempts += 1;
    step.startedAt = workflowTime();
    run.event({ type: 'step.started', stepId: id, message: `${id} started: ${step.title}` });
    const scope = new CancellationScope();
    scopes[id] = scope;
    const task = scope
      .run(() => runStep(run, plan, id, tools))
      .then(async (outcome) => {
        delete scopes[id];
        if (outcome.progress) run.recordProgress(outcome.progress);
        step.endedAt = workflowTime();
        if (outcome.status === 'completed') {
          step.status = 'completed';
          step.result = outcome.result;
          run.event({ type: 'step.finished', stepId: id, message: `${id} completed` });
          if (plan.replan.includes(id) && run.state.replans < run.settings.limits.maxReplans) replanDue = true;
          return;
        }
        step.error = outcome.error;
        step.status = outcome.code === 'CANCELLED' ? 'cancelled' : 'failed';
        run.event({ type: 'step.finished', stepId: id, message: `${id} ${step.status}: ${outcome.error}` });
        if (step.status === 'failed' && failure === undefined) await onFailed(step, outcome.error);
      })
      .finally(() => void (changed = true));
    tasks.push(task);
  };

  const pending = () => run.state.steps.some((s) => s.status === 'pending');
  for (;;) {
    rollOver ||= pending() && run.rollOverDue();
    if (failure === undefined && !replanDue && !rollOver) {
      const cap = run.settings.limits.maxParallelSteps;
      for (const id of selectStepsToStart(plan, stepStatuses(run.state), cap)) start(id);
    }
    const busy = run.state.steps.some((s) => s.status === 'running' || s.status === 'waiting');
    if (!busy) break;
    try {
      await condition(() => changed);
    } catch (err) {
      // The agent is being cancelled: its steps get the cancellation too; wait for them to
      // report, so the state keeps what finished and marks the rest cancelled.
      if (isCancellation(err)) await CancellationScope.nonCancellable(() => Promise.all(tasks));
      throw err;
    }
    changed = false;
  }
  await Promise.all(tasks);
  if (failure !== undefined) return { kind: 'failed', error: failure };
  if (replanDue) return { kind: 'replan' };
  return rollOver && pending() ? { kind: 'roll-over' } : { kind: 'done' };
}

/** Runs one step as a child workflow; failures and cancellations come back as outcomes. */
async function runStep(run: AgentRun, plan: Plan, id: string, tools: ToolInfo[]): Promise<StepOutcome> {
  const step = plan.steps.find((s) => s.id === id);
  if (!step) throw new Error(`no step ${id}`);
  const input: StepInput = {
    agentId: run.agentId,
    task: plan.task || run.settings.task,
    step,
    dependencies: step.depends_on.map((dep) => {
      const done = stepRun(run.state, dep);
      return { id: dep, title: done?.title ?? dep, result: done?.result ?? '' };
    }),
    tools,
    maxStepRounds: run.settings.limits.maxStepRounds,
    canAsk: !run.settings.nested,
    ...(run.settings.systemPrompt ? { systemPrompt: run.settings.systemPrompt } : {}),
    ...(run.settings.model ? { model: run.settings.model } : {}),
  };
  try {
    return await executeChild(stepWorkflow, {
      workflowId: run.stepWorkflowId(id),
      args: [input],
      staticSummary: `${id} · ${step.title}`,
    });
  } catch (err) {
    if (isCancellation(err) || (err instanceof ChildWorkflowFailure && isCancellation(err.cause))) {
      return { status: 'failed', code: 'CANCELLED', error: 'cancelled', rounds: 0 };
    }
    const message = err instanceof ChildWorkflowFailure ? (err.cause?.message ?? err.message) : String(err);
    return { status: 'failed', code: 'STEP_FAILED', error: message, rounds: 0 };
  }
}
