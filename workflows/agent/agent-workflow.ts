/**
 * `agentWorkflow` — one agent task, start to finish, as a pipeline of phases: the tool
 * catalogue, planning (with the human plan check), execution of the steps as parallel child
 * workflows with replans between passes, and the summary. ReAct mode (plan off) runs one step
 * on the whole task. Everything a person needs to see is in the `state` query; answers arrive
 * by the `answer` update or signal (see docs/architecture.md).
 *
 * A long agent continues as new at safe boundaries when the server suggests it: while it waits
 * for the plan check, or between steps once running ones settled — never inside a model call
 * or a handler. The second argument, set only by continue-as-new, carries the state, open
 * interactions and timeline cursor over: clients see one agent going on.
 */
import { allHandlersFinished, condition, continueAsNew, isCancellation } from '@temporalio/workflow';
import type { AgentResult } from '../agent-contract';
import { listTools } from '../activity-proxies';
import { describeFailure } from '../describe-failure';
import { workflowFailure } from '../failures';
import type { ToolInfo } from '../tools/tool-types';
import type { AgentCarry } from './agent-carry';
import { parseAgentInput, type AgentInput } from './agent-input';
import { AgentRun } from './agent-run';
import { executePlan } from './execution';
import { planTask, replan } from './planning/plan-phase';
import { summarize } from './summary';

/** A run's end: the agent's result, or the carry for the next run. */
type RunEnd = AgentResult | { rollOver: AgentCarry };

export async function agentWorkflow(input: AgentInput, carry?: AgentCarry): Promise<AgentResult> {
  const parsed = parseAgentInput(input);
  if (!parsed.ok) throw workflowFailure('INVALID_INPUT', `invalid agent input: ${parsed.errors.join('; ')}`);
  const run = new AgentRun(parsed.settings, carry).serve();
  let end: RunEnd;
  try {
    end = await run.scope.run(() => runAgent(run, carry));
    await condition(allHandlersFinished);
  } catch (err) {
    if (!isCancellation(err)) throw fail(run, err);
    cancel(run);
    // Stopped by its own expiry policy: it ends normally, as cancelled (like a plan-check cancel).
    if (run.stopReason !== undefined) return { status: 'cancelled', usage: run.state.usage };
    throw err;
  }
  if ('rollOver' in end) return await continueAsNew<typeof agentWorkflow>(input, end.rollOver);
  return end;
}

/** The phases, in order; each returns early when the agent ends or rolls over. */
async function runAgent(run: AgentRun, carry: AgentCarry | undefined): Promise<RunEnd> {
  const { settings, state } = run;
  const tools: ToolInfo[] =
    carry?.tools ?? (await listTools.executeWithOptions({ summary: 'tool catalogue' }, [settings.tools]));

  let plan = carry?.resumeAt === 'execute' ? state.plan : undefined;
  if (!plan) {
    const planned = await planTask(run, tools, carry?.resumeAt === 'plan-check');
    if (planned === 'roll-over') return { rollOver: run.carry('plan-check', tools) };
    if (planned === 'cancelled') return { status: 'cancelled', usage: state.usage };
    plan = planned.plan;
  }

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

/** The agent was cancelled (by a request or its own expiry policy): it keeps what finished. */
function cancel(run: AgentRun): void {
  run.board.cancelActive();
  run.desk.closeAll('the agent was cancelled');
  run.event({ type: 'agent.finished', message: run.stopReason ? `cancelled: ${run.stopReason}` : 'cancelled' });
  run.setPhase('cancelled');
}

/** The agent failed: the state says why, and the failure keeps its code. */
function fail(run: AgentRun, err: unknown) {
  const failure = describeFailure(err);
  run.state.error = failure.message;
  run.desk.closeAll('the agent failed');
  run.event({ type: 'agent.finished', message: `failed: ${failure.message}` });
  run.setPhase('failed');
  return workflowFailure(failure.code, failure.message);
}
