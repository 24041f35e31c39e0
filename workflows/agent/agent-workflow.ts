/**
 * `agentWorkflow` — one agent task, start to finish (DESIGN §4): plan (asking the user while
 * asks remain), plan check by a human, execution of the steps as parallel child workflows,
 * replans, and the summary. ReAct mode (plan off) runs one step on the whole task.
 * Everything a person needs to see is in the `state` query; answers arrive by the `answer`
 * update or signal.
 *
 * A long agent continues as new at safe boundaries when the server suggests it (DESIGN §4.13):
 * while it waits for the plan check, or between steps once running ones settled — never
 * inside a model call or a handler. The second argument, set only by continue-as-new, carries
 * the state, open interactions and timeline cursor over: clients see one agent going on.
 */
import { allHandlersFinished, condition, continueAsNew, isCancellation } from '@temporalio/workflow';
import type { AgentResult } from '../agent-contract';
import { listTools } from '../activity-proxies';
import { describeFailure } from '../describe-failure';
import { workflowFailure } from '../failures';
import { parsePlanOutput, parseReplanOutput } from '../plan/check-plan';
import type { Plan } from '../plan/plan-types';
import type { ToolInfo } from '../tools/tool-types';
import { PLANNER, type AgentCarry } from './agent-carry';
import { parseAgentInput, type AgentInput } from './agent-input';
import { AgentRun } from './agent-run';
import { openInteractions } from './agent-state';
import { zeroUsage } from '../usage';
import { executePlan } from './execution';
import { obtainPlan } from './planning';
import { plannerSystemPrompt, plannerTaskMessage, planRevisionMessage, replanMessage } from './prompts';
import { summarize } from './summary';

/** A run's end: the agent's result, or the carry for the next run. */
type RunEnd = AgentResult | { rollOver: AgentCarry };

export async function agentWorkflow(input: AgentInput, carry?: AgentCarry): Promise<AgentResult> {
  const parsed = parseAgentInput(input);
  if (!parsed.ok) {
    throw workflowFailure('INVALID_INPUT', `invalid agent input: ${parsed.errors.join('; ')}`);
  }
  const run = new AgentRun(parsed.settings, carry).serve();
  let end: RunEnd;
  try {
    end = await run.scope.run(() => runAgent(run, carry));
    await condition(allHandlersFinished);
  } catch (err) {
    if (isCancellation(err)) {
      for (const step of run.state.steps) {
        if (step.status === 'running' || step.status === 'waiting') step.status = 'cancelled';
      }
      run.event({ type: 'agent.finished', message: run.stopReason ? `cancelled: ${run.stopReason}` : 'cancelled' });
      run.setPhase('cancelled');
      // Stopped by its own expiry policy: it ends normally, as cancelled (like a plan-check cancel).
      if (run.stopReason !== undefined) return { status: 'cancelled', usage: run.state.usage };
      throw err;
    }
    const failure = describeFailure(err);
    run.state.error = failure.message;
    run.event({ type: 'agent.finished', message: `failed: ${failure.message}` });
    run.setPhase('failed');
    throw workflowFailure(failure.code, failure.message);
  }
  if ('rollOver' in end) return await continueAsNew<typeof agentWorkflow>(input, end.rollOver);
  return end;
}

async function runAgent(run: AgentRun, carry: AgentCarry | undefined): Promise<RunEnd> {
  const { settings, state } = run;
  const tools = carry?.tools ?? (await listTools.executeWithOptions({ summary: 'tool catalogue' }, [settings.tools]));
  let plan: Plan;
  if (carry?.resumeAt === 'execute' && state.plan) {
    plan = state.plan;
  } else if (settings.mode.plan) {
    const checked = await planWithCheck(run, tools, carry?.resumeAt === 'plan-check');
    if (checked === 'roll-over') return { rollOver: run.carry('plan-check', tools) };
    plan = checked;
  } else {
    plan = reactPlan(settings.task);
    adoptPlan(run, plan);
  }
  if (state.phase === 'cancelled') return { status: 'cancelled', usage: state.usage };

  for (;;) {
    run.setPhase('executing');
    const outcome = await executePlan(run, tools);
    if (outcome.kind === 'failed') throw workflowFailure('STEP_FAILED', outcome.error);
    if (outcome.kind === 'roll-over') return { rollOver: run.carry('execute', tools) };
    if (outcome.kind === 'done') break;
    plan = await replan(run, plan);
  }

  run.setPhase('summarizing');
  state.result = settings.mode.plan ? await summarize(run) : (state.steps[0]?.result ?? '');
  run.event({ type: 'agent.finished', message: 'completed' });
  run.setPhase('completed');
  return { status: 'completed', answer: state.result, usage: state.usage };
}

/**
 * Plans, then (top-level agents with confirmPlan) waits for a human to check the plan. With
 * `resuming`, the plan and its open check come from the previous run. Returns `'roll-over'`
 * when the server suggests continue-as-new while the check waits.
 */
async function planWithCheck(run: AgentRun, tools: ToolInfo[], resuming: boolean): Promise<Plan | 'roll-over'> {
  const { settings, state } = run;
  let plan: Plan;
  if (resuming && state.plan) {
    plan = state.plan;
  } else {
    run.conversations.append(
      PLANNER,
      { role: 'system', content: plannerSystemPrompt(tools, settings.mode.ask, settings.systemPrompt) },
      { role: 'user', content: plannerTaskMessage(settings.task, settings.files) },
    );
    plan = await obtainPlan(run, 'plan', parsePlanOutput);
    adoptPlan(run, plan);
  }
  while (settings.mode.confirmPlan && !settings.nested) {
    run.setPhase('awaiting_input');
    const check =
      openInteractions(state).find((i) => i.kind === 'plan.check') ??
      run.open({ kind: 'plan.check', prompt: 'Check the plan', plan, revision: state.revision });
    const answer = await run.answerOf(check, true);
    if (answer === 'roll-over') return answer;
    if (!('decision' in answer) || answer.decision === 'confirm') break;
    if (answer.decision === 'cancel') {
      run.event({ type: 'agent.finished', message: 'cancelled at plan check' });
      run.setPhase('cancelled');
      return plan;
    }
    if (answer.decision === 'edit' && 'plan' in answer && answer.plan) {
      // The human wrote this plan: it needs no second check.
      adoptPlan(run, answer.plan);
      return answer.plan;
    }
    run.setPhase('planning');
    run.conversations.append(PLANNER, {
      role: 'user',
      content: planRevisionMessage(('feedback' in answer && answer.feedback) || ''),
    });
    plan = await obtainPlan(run, 'plan', parsePlanOutput);
    adoptPlan(run, plan);
  }
  return plan;
}

/** Makes `plan` current: bumps the revision and keeps settled step runs. */
function adoptPlan(run: AgentRun, plan: Plan): void {
  const { state } = run;
  const previous = state.steps;
  state.plan = plan;
  state.revision += 1;
  state.steps = plan.steps.map(
    (step) =>
      previous.find((p) => p.id === step.id && p.status !== 'pending') ?? {
        id: step.id,
        title: step.title,
        status: 'pending',
        usage: zeroUsage(),
        toolCalls: [],
        rounds: 0,
        attempts: 0,
      },
  );
  run.event({
    type: state.revision === 1 ? 'plan.created' : 'plan.revised',
    message: `plan r${state.revision}: ${plan.steps.map((s) => s.id).join(', ')}`,
  });
}

/** Asks the planner for the remaining steps, keeping the settled ones (DESIGN §4.7). */
async function replan(run: AgentRun, plan: Plan): Promise<Plan> {
  const { state } = run;
  run.setPhase('replanning');
  state.replans += 1;
  run.event({ type: 'replan', message: `replan ${state.replans}` });
  const kept = state.steps.filter((s) => s.status !== 'pending').map((s) => s.id);
  run.conversations.append(PLANNER, {
    role: 'user',
    content: replanMessage(
      plan,
      state.steps
        .filter((s) => kept.includes(s.id))
        .map((s) => ({ id: s.id, title: s.title, status: s.status, result: s.result })),
    ),
  });
  const next = await obtainPlan(run, 'replan', (content) => parseReplanOutput(plan, kept, content));
  adoptPlan(run, next);
  return next;
}

/** ReAct mode: the whole task as one step. */
function reactPlan(task: string): Plan {
  return {
    task,
    language: 'en',
    steps: [
      { id: 'task', title: task.length > 80 ? `${task.slice(0, 77)}...` : task, description: task, depends_on: [] },
    ],
    replan: [],
  };
}
