/**
 * How an agent ends, in one place: every ending — completed, stopped, cancelled (by a request, at
 * the plan check, by an expiry) or failed — goes through `finish`, which takes the same teardown
 * for all of them (the hold dropped, running steps marked cancelled, open interactions closed),
 * records what that ending records, adds one `agent.finished` event and sets the final phase.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { AgentResult } from '../model/agent/agent-contract';
import { describeFailure } from '../runtime/describe-failure';
import { stepFailedDetail, workflowFailure } from '../contract/failures';
import type { Actor } from '../contract/messages';
import { workflowTime } from '../base/workflow-time';
import type { AgentRun } from './agent-run';
import type { AgentPhase } from '../model/agent/agent-state';
import { cancelRequester } from '../model/agent/cancel-attribution';
import { mechanicalSummary } from '../model/agent/prompts';
import { approvalsGiven } from '../model/tools/approval-reuse';

/** Every way an agent ends. */
export type AgentOutcome =
  | { kind: 'completed'; answer: string }
  | { kind: 'stopped'; reason: string }
  | { kind: 'cancelled'; by: 'request' | 'plan-check' | 'expiry'; reason?: string }
  | { kind: 'failed'; error: unknown };

/** A failed ending. */
type Failed = Extract<AgentOutcome, { kind: 'failed' }>;

/**
 * Ends the agent: the common teardown, then what the ending records, the phase last (so the
 * Temporal UI shows it all). Returns the workflow's result, or — for a failure — what it throws.
 */
export function finish(run: AgentRun, outcome: Failed): ApplicationFailure;
export function finish(run: AgentRun, outcome: Exclude<AgentOutcome, Failed>): AgentResult;
export function finish(run: AgentRun, outcome: AgentOutcome): AgentResult | ApplicationFailure {
  const { state } = run;
  run.hold.drop();
  run.board.cancelActive();
  const { message, phase, closing } = record(run, outcome);
  if (closing) run.desk.closeAll(closing);
  const asked = outcome.kind === 'cancelled' && outcome.by === 'request' ? requester(run) : undefined;
  const actor = asked?.actor ? { actor: asked.actor } : {};
  run.event({ type: 'agent.finished', message: `${message}${asked?.text ?? ''}`, ...actor });
  run.setPhase(phase);
  switch (outcome.kind) {
    case 'completed':
      return { status: 'completed', answer: outcome.answer, usage: state.usage, ...turnSteps(run) };
    case 'stopped':
      return {
        status: 'stopped',
        answer: state.result ?? '',
        usage: state.usage,
        stopReason: outcome.reason,
        ...turnSteps(run),
      };
    case 'cancelled':
      return { status: 'cancelled', usage: state.usage, ...heardOf(run) };
    case 'failed': {
      const failure = describeFailure(outcome.error);
      const step = outcome.error instanceof ApplicationFailure ? stepFailedDetail(outcome.error) : undefined;
      // A thread's turn says what it spent (a detail after any other): the thread counts it.
      const spent = run.settings.thread ? [{ usage: state.usage }] : [];
      return workflowFailure(failure.code, failure.message, ...(step ? [step] : []), ...spent);
    }
  }
}

/** The longest step result a thread's turn hands back (the thread cuts its context again). */
const TURN_RESULT_CHARS = 4_000;

/** A thread's turn lists its steps and their cut results, the calls people approved and the messages heard; any other agent nothing. */
function turnSteps(run: AgentRun): Pick<AgentResult, 'steps'> {
  if (!run.settings.thread) return {};
  const steps = run.state.steps.map((s) => ({
    id: s.id,
    title: s.title,
    ...(s.result !== undefined ? { result: s.result.slice(0, TURN_RESULT_CHARS) } : {}),
  }));
  const approvals = approvalsGiven(run.agentId, run.state.interactions, run.settings.principal);
  return { steps, ...(approvals.length ? { approvals } : {}), ...heardOf(run) };
}

/** A thread's turn names the messages steered in that a step's model heard (its thread queues the others). */
function heardOf(run: AgentRun): Pick<AgentResult, 'heard'> {
  const heard = run.settings.thread ? run.state.heard : undefined;
  return heard?.length ? { heard: [...heard] } : {};
}

/** What an ending writes into the state, its timeline message, its phase and why open questions close. */
function record(run: AgentRun, outcome: AgentOutcome): { message: string; phase: AgentPhase; closing?: string } {
  const { state } = run;
  switch (outcome.kind) {
    case 'completed':
      state.result = outcome.answer;
      return { message: 'completed', phase: 'completed' };
    case 'stopped':
      state.stopReason = outcome.reason;
      state.result = mechanicalSummary(state.steps);
      return {
        message: `stopped: ${outcome.reason}`,
        phase: 'stopped',
        closing: `the agent was stopped (${outcome.reason})`,
      };
    case 'cancelled': {
      if (outcome.by === 'plan-check') {
        return { message: 'cancelled at plan check', phase: 'cancelled', closing: 'the agent was cancelled' };
      }
      const message = outcome.by === 'expiry' ? `cancelled: ${outcome.reason ?? ''}` : 'cancelled';
      return { message, phase: 'cancelled', closing: 'the agent was cancelled' };
    }
    case 'failed': {
      const failure = describeFailure(outcome.error);
      const step = outcome.error instanceof ApplicationFailure ? stepFailedDetail(outcome.error) : undefined;
      state.error = failure.message;
      state.failure = {
        code: failure.code,
        ...(step ? { stepId: step.stepId, ...(step.code !== 'STEP_FAILED' ? { cause: step.code } : {}) } : {}),
      };
      return { message: `failed: ${failure.message}`, phase: 'failed', closing: 'the agent failed' };
    }
  }
}

/**
 * Who asked for a cancellation: a request that a `recordCancel` update announced, unless
 * abandoned (state only: no command).
 */
function requester(run: AgentRun): { text: string; actor?: Actor } {
  const asked = cancelRequester(run.state.cancelRequest, workflowTime());
  const who = asked?.actor?.id ?? asked?.by;
  const why = asked?.reason ? `: ${asked.reason}` : '';
  return { text: `${who ? ` by ${who}` : ''}${why}`, ...(asked?.actor ? { actor: asked.actor } : {}) };
}
