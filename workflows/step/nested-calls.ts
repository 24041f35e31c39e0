/**
 * The tool calls a step runs itself rather than as the `runTool` activity: `model` (one LLM
 * call with its own system prompt) and `sub_agent` (a nested agent as a child workflow). Both
 * spend from the tree's budget, so neither starts once the budget the agent told the step is spent.
 */
import { CancelledFailure, executeChild, isCancellation, patched } from '@temporalio/workflow';
import { llmCall } from '../runtime/activity-proxies';
import { AGENT_WORKFLOW_TYPE, type NestedAgentWorkflow } from '../model/agent/agent-contract';
import { asLimits, isSpent, type BudgetLeft } from '../model/llm/budget-left';
import { subAgentWorkflowId } from '../base/ids';
import type { LlmToolCall } from '../model/llm/llm-types';
import { PATCHES } from '../base/patches';
import { modelArgsSchema, subAgentArgsSchema } from '../model/tools/builtin-tools';
import { cutOutput } from '../model/tools/cut-output';
import type { StepToolsContext, ToolOutcome } from './step-tool-types';

/** The tools this module runs. */
export const NESTED_TOOLS: readonly string[] = ['model', 'sub_agent'];

/** Runs a `model` or `sub_agent` call whose arguments passed their schema (`args`). */
export async function runNestedCall(ctx: StepToolsContext, call: LlmToolCall, args: unknown): Promise<ToolOutcome> {
  // What the budget has left, when the agent told the step (metered agents of this release).
  const left = ctx.link.budgetLeft();
  const budgeted = left !== undefined && patched(PATCHES.nestedBudget) ? left : undefined;
  if (budgeted && isSpent(budgeted)) {
    // The step's own spend in this round used what was left: the agent will hold it at its report.
    const output = 'not run: the agent’s budget is spent. Finish with what you have, or try again later.';
    return { ok: false, output, rejected: true };
  }
  if (call.name === 'model') return runModel(ctx, modelArgsSchema.parse(args));
  return runSubAgent(ctx, call.id, subAgentArgsSchema.parse(args), budgeted);
}

async function runModel(ctx: StepToolsContext, args: { task: string; systemPrompt?: string }): Promise<ToolOutcome> {
  const reply = await llmCall(`${ctx.input.step.id} · model`, {
    purpose: 'model',
    ownerId: ctx.input.agentId,
    stepId: ctx.input.step.id,
    messages: [
      ...(args.systemPrompt ? [{ role: 'system' as const, content: args.systemPrompt }] : []),
      { role: 'user', content: args.task },
    ],
    ...(ctx.input.model ? { model: ctx.input.model } : {}),
  });
  ctx.ledger.spend(reply.usage);
  // A cut answer is labelled, so the step's model does not take it for a whole one.
  const cut = reply.finishReason === 'length' ? '\n[the answer was cut at its token limit]' : '';
  return { ok: true, output: cutOutput(reply.content ?? '') + cut };
}

/**
 * Runs a nested agent to its end. Under a budget it gets what is left as its own (`limits`): it
 * stops itself there, and its usage counts with this step's round like any sub-call. A nested
 * agent cancelled with this step hands back its usage (this release's agents do): counted, and
 * the cancellation goes on.
 */
async function runSubAgent(
  ctx: StepToolsContext,
  callId: string,
  args: { task: string },
  left?: BudgetLeft,
): Promise<ToolOutcome> {
  const { input } = ctx;
  const workflowId = subAgentWorkflowId(input.agentId, input.step.id, callId);
  ctx.link.nestedStarted(workflowId); // a hold of this step is passed on while it runs
  try {
    const result = await executeChild<NestedAgentWorkflow>(AGENT_WORKFLOW_TYPE, {
      workflowId,
      args: [
        {
          task: args.task,
          nested: true,
          ...(input.principal ? { principal: input.principal } : {}),
          mode: { plan: true, ask: false, confirmPlan: false },
          tools: input.tools.filter((t) => t.name !== 'sub_agent').map((t) => t.name),
          // The agent's model settings (name, max_tokens…) hold for its sub-agents too.
          ...(input.model ? { model: input.model } : {}),
          ...(left ? { limits: asLimits(left) } : {}),
          // A step of an agent in the shared root (started before per-agent folders): so is its nested agent.
          ...(input.workspace ? {} : { sharedWorkspace: true as const }),
        },
      ],
      staticSummary: `sub-agent of ${input.step.id}: ${args.task.slice(0, 80)}`,
    });
    ctx.ledger.spend(result.usage);
    if (result.status === 'cancelled' && patched(PATCHES.nestedBudget))
      throw new CancelledFailure('the sub-agent was cancelled');
    if (result.status === 'stopped') {
      const why =
        result.stopReason === 'budget' ? 'the budget was spent' : `it was stopped (${result.stopReason ?? 'stopped'})`;
      return {
        ok: true,
        output: cutOutput(`The sub-agent stopped before it finished: ${why}. What it had:\n${result.answer ?? ''}`),
      };
    }
    return { ok: true, output: cutOutput(result.answer ?? '') };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    return { ok: false, output: `the sub-agent failed: ${cause instanceof Error ? cause.message : String(cause)}` };
  } finally {
    ctx.link.nestedEnded(workflowId);
  }
}
