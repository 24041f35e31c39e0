/**
 * One plan step as a child workflow: its input (its own description, the results of the steps
 * it depends on — nothing else — and the agent's tools and settings), started under the
 * step's contract id; a failure or cancellation comes back as an outcome, never thrown.
 */
import { ApplicationFailure, ChildWorkflowFailure, executeChild, isCancellation } from '@temporalio/workflow';
import { isErrorCode, type ErrorCode } from '../contract/error-codes';
import { stepWorkflowId } from '../contract/ids';
import type { Plan } from '../plan/plan-types';
import { stepWorkflow } from '../step/step-workflow';
import { STEP_INPUT_VERSION, type StepInput, type StepOutcome } from '../step/step-types';
import type { ToolInfo } from '../tools/tool-types';
import type { AgentRun } from './agent-run';

/** The input of step `id`. */
function stepInput(run: AgentRun, plan: Plan, id: string, tools: ToolInfo[]): StepInput | undefined {
  const step = plan.steps.find((s) => s.id === id);
  if (!step) return undefined;
  const { settings } = run;
  const left = run.meter.left();
  return {
    version: STEP_INPUT_VERSION,
    agentId: run.agentId,
    task: plan.task || settings.task,
    step,
    dependencies: step.depends_on.map((dep) => {
      const done = run.board.get(dep);
      return { id: dep, title: done?.title ?? dep, result: done?.result ?? '' };
    }),
    tools,
    maxStepRounds: settings.limits.maxStepRounds,
    guards: {
      maxToolCallsPerReply: settings.limits.maxToolCallsPerReply,
      maxIdenticalCalls: settings.limits.maxIdenticalCalls,
      maxToolErrors: settings.limits.maxToolErrors,
    },
    canAsk: !settings.nested,
    ...(run.meter.metered() ? { metered: true } : {}),
    ...(left ? { budgetLeft: left } : {}),
    ...(settings.systemPrompt ? { systemPrompt: settings.systemPrompt } : {}),
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.principal ? { principal: settings.principal } : {}),
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

/** Runs step `id` of `plan` as a child workflow until it ends. */
export async function runStep(run: AgentRun, plan: Plan, id: string, tools: ToolInfo[]): Promise<StepOutcome> {
  const input = stepInput(run, plan, id, tools);
  if (!input) return { status: 'failed', code: 'STEP_FAILED', error: `no step ${id} in the plan`, rounds: 0 };
  try {
    return await executeChild(stepWorkflow, {
      workflowId: stepWorkflowId(run.agentId, id),
      args: [input],
      staticSummary: `${id} · ${input.step.title}`,
    });
  } catch (err) {
    if (isCancellation(err) || (err instanceof ChildWorkflowFailure && isCancellation(err.cause))) {
      return { status: 'failed', code: 'CANCELLED', error: 'cancelled', rounds: 0 };
    }
    const message = err instanceof ChildWorkflowFailure ? (err.cause?.message ?? err.message) : String(err);
    return { status: 'failed', code: codeOf(err) ?? 'STEP_FAILED', error: message, rounds: 0 };
  }
}
