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
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  isCancellation,
  makeContinueAsNewFunc,
  patched,
} from '@temporalio/workflow';
import type { AgentResult } from '../agent-contract';
import { describeFailure } from '../describe-failure';
import { stepFailed, stepFailedDetail, workflowFailure } from '../failures';
import { workflowTime } from '../workflow-time';
import type { ToolInfo } from '../tools/tool-types';
import type { AgentCarry } from './agent-carry';
import { parseAgentInput, type AgentInput } from './agent-input';
import { AgentRun } from './agent-run';
import { cancelRequester } from './cancel-attribution';
import { readCarry, type CarriedAgent } from './carry-migration';
import { executePlan } from './execution';
import { planTask, replan } from './planning/plan-phase';
import { mechanicalSummary } from './prompts';
import { summarize } from './summary';
import { readToolCatalogue } from './tool-catalogue';
import { PATCHES } from '../patches';
import { received, UNENCRYPTED_REFUSAL } from '../unencrypted-payload';
import { endingLiveStream } from '../live/end-live-stream';

/** A run's end: the agent's result, or the carry for the next run. */
type RunEnd = AgentResult | { rollOver: AgentCarry };

export async function agentWorkflow(input: AgentInput, carried?: CarriedAgent): Promise<AgentResult> {
  // However the run ends (but by continuing as new), its live stream hears it (live/end-live-stream.ts).
  return endingLiveStream(() => runAgentWorkflow(input, carried));
}

async function runAgentWorkflow(input: AgentInput, carried?: CarriedAgent): Promise<AgentResult> {
  // Started by someone without the encryption keys: refused (a run begun before refusals replays as it ran).
  const sent = received(input);
  if (sent.refused) throw workflowFailure('NOT_ENCRYPTED', `the agent's input: ${UNENCRYPTED_REFUSAL}`);
  const parsed = parseAgentInput(sent.value);
  if (!parsed.ok) throw workflowFailure('INVALID_INPUT', `invalid agent input: ${parsed.errors.join('; ')}`);
  // A carry of any release, read as the current version (an unreadable one fails the task, not the agent).
  const carry = carried === undefined ? undefined : readCarry(carried);
  const run = new AgentRun(parsed.settings, carry).serve();
  let end: RunEnd;
  try {
    end = await run.scope.run(() => runAgent(run, carry));
    await condition(allHandlersFinished);
  } catch (err) {
    if (!isCancellation(err)) throw fail(run, err);
    if (run.stopping !== undefined) return stop(run, run.stopping);
    cancel(run);
    // Stopped by its own expiry policy: it ends normally, as cancelled (like a plan-check cancel).
    if (run.stopReason !== undefined) return { status: 'cancelled', usage: run.state.usage };
    // A nested agent cancelled with its step ends normally too, so the step counts what it spent.
    if (parsed.settings.nested && patched(PATCHES.nestedBudget)) return { status: 'cancelled', usage: run.state.usage };
    throw err;
  }
  // The input as sent (a replayed run's taken out of its mark): the next run must not carry a mark.
  if ('rollOver' in end) return await moveOn()(sent.value as AgentInput, end.rollOver);
  return end;
}

/**
 * Continues as new. The run was pinned to its Worker Deployment version; the next one starts on
 * the version current now (`AUTO_UPGRADE` for its first task, pinned again from then on): this
 * is how a long agent moves to a new release, only ever at a safe boundary.
 */
const moveOn = () => makeContinueAsNewFunc<typeof agentWorkflow>({ initialVersioningBehavior: 'AUTO_UPGRADE' });

/** The phases, in order; each returns early when the agent ends or rolls over. */
async function runAgent(run: AgentRun, carry: AgentCarry | undefined): Promise<RunEnd> {
  const { settings, state } = run;
  const tools: ToolInfo[] = carry?.tools ?? (await readToolCatalogue(settings.tools));

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
    if (outcome.kind === 'failed') throw stepFailed({ stepId: outcome.stepId, code: outcome.code }, outcome.error);
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
 * The agent was cancelled (by a request or its own expiry policy): it keeps what finished. A
 * request that a `recordCancel` update announced, unless abandoned, names who asked (state
 * only: no command).
 */
function cancel(run: AgentRun): void {
  run.hold.drop();
  run.board.cancelActive();
  run.desk.closeAll('the agent was cancelled');
  const asked = run.stopReason === undefined ? cancelRequester(run.state.cancelRequest, workflowTime()) : undefined;
  const who = asked?.actor?.id ?? asked?.by;
  const why = asked?.reason ? `: ${asked.reason}` : '';
  const message = run.stopReason ? `cancelled: ${run.stopReason}` : `cancelled${who ? ` by ${who}` : ''}${why}`;
  run.event({ type: 'agent.finished', message, ...(asked?.actor ? { actor: asked.actor } : {}) });
  run.setPhase('cancelled');
}

/**
 * A budget (or deadline) decision ended the agent early: running steps are cancelled (each hands
 * back its partial result, kept on its step), finished ones keep their results, and the answer
 * is a mechanical summary of both — no further model call.
 */
function stop(run: AgentRun, reason: string): AgentResult {
  const { state } = run;
  run.hold.drop();
  run.board.cancelActive();
  run.desk.closeAll(`the agent was stopped (${reason})`);
  state.stopReason = reason;
  state.result = mechanicalSummary(state.steps);
  run.event({ type: 'agent.finished', message: `stopped: ${reason}` });
  run.setPhase('stopped');
  return { status: 'stopped', answer: state.result, usage: state.usage, stopReason: reason };
}

/** The agent failed: the state says why, in words and in codes, and the failure keeps its code and details. */
function fail(run: AgentRun, err: unknown) {
  const failure = describeFailure(err);
  const step = err instanceof ApplicationFailure ? stepFailedDetail(err) : undefined;
  run.hold.drop();
  run.state.error = failure.message;
  run.state.failure = {
    code: failure.code,
    ...(step ? { stepId: step.stepId, ...(step.code !== 'STEP_FAILED' ? { cause: step.code } : {}) } : {}),
  };
  run.desk.closeAll('the agent failed');
  run.event({ type: 'agent.finished', message: `failed: ${failure.message}` });
  run.setPhase('failed');
  return workflowFailure(failure.code, failure.message, ...(step ? [step] : []));
}
