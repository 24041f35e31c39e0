/**
 * How a step carries out the model's tool calls: `finish_step`, `ask_user` and the approval of
 * write tools go through the agent; `model` and `sub_agent` run here as an LLM call and a
 * nested agent; every other tool is validated against its schema in workflow code, approved if
 * the call writes, and run as the `runTool` activity — with one attempt when the call is not
 * idempotent. Both are decided per call (`callEffect`): http_fetch with GET reads, with POST writes.
 */
import { ActivityFailure, executeChild, isCancellation } from '@temporalio/workflow';
import { llmCall, runTool } from '../activity-proxies';
import { AGENT_WORKFLOW_TYPE, type NestedAgentWorkflow } from '../agent-contract';
import { subAgentWorkflowId } from '../ids';
import { parseAskArgs } from '../interactions/ask-schema';
import { toInteractionSpec } from '../interactions/ask-user-tool';
import type { AnswerOf, SpecOf } from '../interactions/answer-types';
import type { InteractionKind } from '../interactions/interaction-types';
import type { LlmToolCall, TokenUsage } from '../llm-types';
import { approvalDigest } from '../tools/approval-digest';
import { callEffect } from '../tools/call-effect';
import { modelArgsSchema, subAgentArgsSchema } from '../tools/builtin-tools';
import { cutOutput } from '../tools/cut-output';
import { parseFinishStepArgs } from '../tools/finish-step';
import { ASK_USER, FINISH_STEP, type ToolCallRecord, type ToolInfo } from '../tools/tool-types';
import { validateArguments } from '../tools/validate-arguments';
import type { StepInput } from './step-types';
import { workflowTime } from '../workflow-time';

/** What one tool call gave back: the tool message, a record, and the result if it finished. */
export interface CallResult {
  content: string;
  record?: ToolCallRecord;
  finished?: string;
}

export interface StepToolsContext {
  input: StepInput;
  /** Opens an interaction at the agent and waits for the answer. */
  askAgent<K extends InteractionKind>(requestId: string, spec: SpecOf<K>): Promise<AnswerOf<K>>;
  /** Adds token usage of sub-calls (model, sub_agent) to the step. */
  addUsage(usage: TokenUsage): void;
}

const MAX_RECORDED_ARGUMENTS = 500;

/** Names of every tool the step's model is offered. */
export function offeredTools(input: StepInput): string[] {
  return [...input.tools.map((t) => t.name), FINISH_STEP, ...(input.canAsk ? [ASK_USER] : [])];
}

/** Carries out one tool call. */
export async function runToolCall(ctx: StepToolsContext, call: LlmToolCall): Promise<CallResult> {
  if (call.name === FINISH_STEP) {
    const parsed = parseFinishStepArgs(call.arguments);
    return parsed.ok ? { content: 'ok', finished: parsed.result } : { content: `error: ${parsed.error}` };
  }
  if (call.name === ASK_USER && ctx.input.canAsk) {
    const parsed = parseAskArgs(call.arguments);
    if (!parsed.ok) return { content: `error: invalid ask_user arguments:\n${parsed.errors.join('\n')}` };
    return { content: JSON.stringify(await ctx.askAgent(call.id, toInteractionSpec(parsed.request))) };
  }
  const tool = ctx.input.tools.find((t) => t.name === call.name);
  if (!tool) return { content: `error: unknown tool "${call.name}"` };
  const started = workflowTime();
  const outcome = await runCatalogueTool(ctx, tool, call);
  const record: ToolCallRecord = {
    callId: call.id,
    name: call.name,
    arguments: call.arguments.slice(0, MAX_RECORDED_ARGUMENTS),
    outcome: outcome.ok ? 'ok' : 'error',
    durationMs: workflowTime() - started,
  };
  return { content: outcome.ok ? outcome.output : `error: ${outcome.output}`, record };
}

async function runCatalogueTool(
  ctx: StepToolsContext,
  tool: ToolInfo,
  call: LlmToolCall,
): Promise<{ ok: boolean; output: string }> {
  const checked = validateArguments(tool.name, tool.parameters, call.arguments);
  if (!checked.ok) return { ok: false, output: checked.error };
  if (tool.name === 'model') return runModel(ctx, modelArgsSchema.parse(checked.value));
  if (tool.name === 'sub_agent') return runSubAgent(ctx, call.id, subAgentArgsSchema.parse(checked.value));
  const effect = callEffect(tool, checked.value);
  if (effect.needsApproval) {
    const digest = approvalDigest(tool.name, checked.value);
    const answer = await ctx.askAgent<'tool.approval'>(call.id, {
      kind: 'tool.approval',
      prompt: `Allow ${tool.name}?`,
      tool: tool.name,
      arguments: checked.value,
      digest,
    });
    if (answer.decision !== 'approve') {
      const reason = answer.reason ? `: ${answer.reason}` : '';
      return { ok: false, output: `the user rejected this call${reason}. Find another way or finish without it.` };
    }
  }
  const { step, agentId } = ctx.input;
  try {
    return await runTool.executeWithOptions(
      {
        summary: `${step.id} · ${tool.name}`,
        // A side effect that cannot honour its idempotency key is never retried blindly.
        ...(effect.idempotent ? {} : { retry: { maximumAttempts: 1 } }),
      },
      [{ agentId, stepId: step.id, callId: call.id, name: tool.name, arguments: call.arguments }],
    );
  } catch (err) {
    // Retries used up on a call that is safe to repeat: the model hears of it and may try
    // again. A lost non-idempotent call fails the step instead — nobody knows if it happened.
    if (!effect.idempotent || isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    return { ok: false, output: err.cause?.message ?? err.message };
  }
}

async function runModel(ctx: StepToolsContext, args: { task: string; systemPrompt?: string }) {
  const reply = await llmCall(`${ctx.input.step.id} · model`, {
    purpose: 'model',
    agentId: ctx.input.agentId,
    stepId: ctx.input.step.id,
    messages: [
      ...(args.systemPrompt ? [{ role: 'system' as const, content: args.systemPrompt }] : []),
      { role: 'user', content: args.task },
    ],
    ...(ctx.input.model ? { model: ctx.input.model } : {}),
  });
  ctx.addUsage(reply.usage);
  return { ok: true, output: cutOutput(reply.content ?? '') };
}

async function runSubAgent(ctx: StepToolsContext, callId: string, args: { task: string }) {
  const { input } = ctx;
  try {
    const result = await executeChild<NestedAgentWorkflow>(AGENT_WORKFLOW_TYPE, {
      workflowId: subAgentWorkflowId(input.agentId, input.step.id, callId),
      args: [
        {
          task: args.task,
          nested: true,
          mode: { plan: true, ask: false, confirmPlan: false },
          tools: input.tools.filter((t) => t.name !== 'sub_agent').map((t) => t.name),
        },
      ],
      staticSummary: `sub-agent of ${input.step.id}: ${args.task.slice(0, 80)}`,
    });
    ctx.addUsage(result.usage);
    return { ok: true, output: cutOutput(result.answer ?? '') };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    return { ok: false, output: `the sub-agent failed: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
}
