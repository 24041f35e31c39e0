/**
 * A step as a child workflow (a plan's step or a graph's visit, walk-loop.ts): its input (the
 * step, what it builds on, and the agent's tools and settings), started under the step's
 * contract id; a failure or cancellation comes back as an outcome, never thrown.
 */
import { stageModel, withModel } from '../model/llm/model-stages';
import { ApplicationFailure, ChildWorkflowFailure, executeChild, isCancellation } from '@temporalio/workflow';
import { isErrorCode, type ErrorCode } from '../base/error-codes';
import { stepWorkflowId } from '../base/ids';
import { stepWorkflow } from '../step/step-workflow';
import { STEP_INPUT_VERSION, type StepInput, type StepOutcome } from '../step/step-types';
import type { ToolInfo } from '../model/tools/tool-types';
import type { SteerMessage } from '../contract/thread-contract';
import type { AgentRun } from './agent-run';

/** `input` with the messages held for the step's first call (agent-steer.ts), or none: each goes to a start once. */
export function withSteered(input: StepInput, steered: SteerMessage[]): StepInput {
  const next = { ...input };
  delete next.incoming;
  return steered.length > 0 ? { ...next, incoming: steered } : next;
}

/** A step's input: the step, what it builds on, and the agent's tools, limits and settings as they stand. */
export function stepInputOf(
  run: AgentRun,
  task: string,
  step: StepInput['step'],
  dependencies: StepInput['dependencies'],
  tools: ToolInfo[],
): StepInput {
  const { settings } = run;
  const left = run.meter.left();
  return {
    version: STEP_INPUT_VERSION,
    agentId: run.agentId,
    task,
    step,
    dependencies,
    tools,
    maxStepRounds: settings.limits.maxStepRounds,
    guards: {
      maxToolCallsPerReply: settings.limits.maxToolCallsPerReply,
      maxIdenticalCalls: settings.limits.maxIdenticalCalls,
      maxToolErrors: settings.limits.maxToolErrors,
    },
    canAsk: !settings.nested,
    ...(settings.limits.onRoundsExhausted === 'deliver' ? { onRoundsExhausted: 'deliver' as const } : {}),
    ...(settings.mode.verifySteps ? { verify: true } : {}),
    ...(run.meter.metered() ? { metered: true } : {}),
    ...(left ? { budgetLeft: left } : {}),
    ...(settings.files?.length ? { files: settings.files } : {}),
    ...(settings.systemPrompt ? { systemPrompt: settings.systemPrompt } : {}),
    ...(run.prompts ? { prompts: run.prompts } : {}),
    ...withModel(stageModel(settings.model, settings.modelStages, 'step')),
    ...(settings.modelStages?.verify
      ? { verifyModel: stageModel(settings.model, settings.modelStages, 'verify') }
      : {}),
    ...(settings.principal ? { principal: settings.principal } : {}),
    ...(run.state.workspace ? { workspace: run.state.workspace } : {}),
    ...(settings.context?.approvals.length ? { approvals: settings.context.approvals } : {}),
  };
}

/**
 * The first of Cairn's codes in a step's failure chain (child → activity → application failure):
 * a step whose workflow failed on an LLM 401 keeps `LLM_AUTH`.
 */
export function codeOf(err: unknown): ErrorCode | undefined {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ApplicationFailure && cause.type && isErrorCode(cause.type)) return cause.type;
  }
  return undefined;
}

/** Runs a step as the child workflow of its contract id until it ends; `summary` names it in the Temporal UI. */
export async function runStepChild(run: AgentRun, input: StepInput, summary: string): Promise<StepOutcome> {
  try {
    return await executeChild(stepWorkflow, {
      workflowId: stepWorkflowId(run.agentId, input.step.id),
      args: [input],
      staticSummary: summary,
    });
  } catch (err) {
    if (isCancellation(err) || (err instanceof ChildWorkflowFailure && isCancellation(err.cause))) {
      return { status: 'failed', code: 'CANCELLED', error: 'cancelled', rounds: 0 };
    }
    const message = err instanceof ChildWorkflowFailure ? (err.cause?.message ?? err.message) : String(err);
    return { status: 'failed', code: codeOf(err) ?? 'STEP_FAILED', error: message, rounds: 0 };
  }
}
