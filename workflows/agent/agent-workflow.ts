/**
 * `agentWorkflow` — one agent task, start to finish, as a pipeline of phases: the tool
 * catalogue, planning (with the human plan check), execution of the steps as parallel child
 * workflows with replans between passes, and the summary. ReAct mode (plan off) runs one step
 * on the whole task; a graph agent walks its graph instead of planning (graph/graph-phase.ts). Everything a person needs to see is in the `state` query; answers arrive
 * by the `answer` update or signal (see docs/architecture/agent-path.md).
 *
 * A long agent continues as new at safe boundaries when the server suggests it: while it waits
 * for the plan check, or between steps once running ones settled — never inside a model call
 * or a handler. The second argument, set only by continue-as-new, carries the state, open
 * interactions and timeline cursor over: clients see one agent going on.
 */
import { allHandlersFinished, condition, isCancellation, makeContinueAsNewFunc, patched } from '@temporalio/workflow';
import type { AgentResult } from '../model/agent/agent-contract';
import { stepFailed, workflowFailure } from '../contract/failures';
import type { AgentCarry } from '../model/agent/agent-carry';
import { finish } from './agent-finish';
import { parseAgentInput, type AgentInput } from '../model/agent/agent-input';
import { AgentRun } from './agent-run';
import { readCarry, type CarriedAgent } from '../model/agent/carry-migration';
import { executePlan } from './plan-walk';
import { planTask, replan } from './planning/plan-phase';
import { summarize } from './summary';
import { runGraph } from './graph/graph-phase';
import { recheckReplan } from './planning/replan-check';
import { readAgentSetup, type AgentSetup } from './agent-setup';
import { fromItsThread } from './thread-trust';
import { PATCHES } from '../base/patches';
import { received, UNENCRYPTED_REFUSAL } from '../runtime/unencrypted-payload';
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
  // A thread turn's fields count only from the thread that started this agent as its turn.
  const trusted = fromItsThread(parsed.settings);
  const run = new AgentRun(trusted.settings, carry).serve();
  if (trusted.ignored !== undefined && !carry) run.event({ type: 'input.ignored', message: trusted.ignored });
  let end: RunEnd;
  try {
    end = await run.scope.run(() => runAgent(run, carry));
    await condition(allHandlersFinished);
  } catch (err) {
    return ended(run, err, trusted.settings.nested);
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
  const setup: AgentSetup = carry
    ? { tools: carry.tools, prompts: carry.prompts }
    : await readAgentSetup(settings.tools);
  // The agent's own templates (its definition's) over the operator's; a carry holds them merged.
  run.usePrompts(carry || !settings.prompts ? setup.prompts : { ...setup.prompts, ...settings.prompts });
  const { tools } = setup;
  if (settings.graph) return runGraph(run, settings.graph, tools, carry);

  let plan = carry?.resumeAt === 'execute' ? state.plan : undefined;
  if (!plan) {
    const planned = await planTask(run, tools, carry?.resumeAt === 'plan-check');
    if (planned === 'roll-over') return { rollOver: run.carry('plan-check', tools) };
    if (planned === 'cancelled') return finish(run, { kind: 'cancelled', by: 'plan-check' });
    plan = planned.plan;
  }

  for (;;) {
    run.setPhase('executing');
    const outcome = await executePlan(run, tools);
    if (outcome.kind === 'failed') throw stepFailed({ stepId: outcome.stepId, code: outcome.code }, outcome.error);
    if (outcome.kind === 'roll-over') return { rollOver: run.carry('execute', tools) };
    if (outcome.kind === 'done') break;
    const before = plan;
    const checked = await recheckReplan(run, before, await replan(run, plan));
    if (checked === 'roll-over') return { rollOver: run.carry('plan-check', tools) };
    if (checked === 'cancelled') return finish(run, { kind: 'cancelled', by: 'plan-check' });
    plan = checked.plan;
  }

  run.setPhase('summarizing');
  // One step and no plan (plan off, or a task assessed simple): its result is the answer.
  const oneStep = !settings.mode.plan || state.assessment?.complexity === 'simple';
  const answer = oneStep ? (state.steps[0]?.result ?? '') : await summarize(run);
  return finish(run, { kind: 'completed', answer });
}

/**
 * The run was cancelled or threw: it ends stopped (a budget or deadline decision), cancelled (its
 * own expiry policy, or a request from outside) or failed — each through `finish`. A cancellation
 * requested from outside ends the workflow as cancelled, except a nested agent's or a thread
 * turn's, which returns normally so the step (or the thread) that ran it counts what it spent.
 */
function ended(run: AgentRun, err: unknown, nested: boolean): AgentResult {
  if (!isCancellation(err)) throw finish(run, { kind: 'failed', error: err });
  const cause = run.ending.cause;
  if (cause?.kind === 'stop') return finish(run, { kind: 'stopped', reason: cause.reason });
  if (cause?.kind === 'expiry') return finish(run, { kind: 'cancelled', by: 'expiry', reason: cause.reason });
  const result = finish(run, { kind: 'cancelled', by: 'request' });
  if (nested && patched(PATCHES.nestedBudget)) return result;
  // A thread's turn too: its thread counts what it spent against the thread's budget.
  if (run.settings.thread) return result;
  throw err;
}
