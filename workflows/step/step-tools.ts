/**
 * How a step carries out the model's tool calls: `finish_step` and `ask_user` go through the
 * agent; every catalogue tool is validated against its schema in workflow code, then `model` and
 * `sub_agent` run here (nested-calls.ts) and every other call is approved if it writes
 * (call-approval.ts) and run as the `runTool` activity — with one attempt when the call is not
 * idempotent. Both are decided per call (`callEffect`): http_fetch with GET reads, with POST writes.
 */
import { ActivityFailure, isCancellation } from '@temporalio/workflow';
import { runTool } from '../runtime/activity-proxies';
import { parseAskArgs } from '../model/interactions/ask-schema';
import { toInteractionSpec } from '../model/interactions/ask-user-tool';
import type { ImageRef, LlmMessage, LlmToolCall } from '../model/llm/llm-types';
import { regexToRun } from './argument-regex-gate';
import { callEffect } from '../model/tools/call-effect';
import { parseFinishStepArgs } from '../model/tools/finish-step';
import { ASK_USER, FINISH_STEP, type ToolCallRecord, type ToolInfo } from '../model/tools/tool-types';
import { validateArguments } from './validate-arguments';
import { workflowTime } from '../base/workflow-time';
import { approveCall } from './call-approval';
import { NESTED_TOOLS, runNestedCall } from './nested-calls';
import type { StepInput } from './step-types';
import type { EarlierApproval } from '../model/tools/approval-reuse';
import type { CallResult, StepToolsContext, ToolOutcome } from './step-tool-types';
import { withImage } from '../model/step/tool-images';

const MAX_RECORDED_ARGUMENTS = 500;

/** Names of every tool the step's model is offered. */
export function offeredTools(input: StepInput): string[] {
  return [...input.tools.map((t) => t.name), FINISH_STEP, ...(input.canAsk ? [ASK_USER] : [])];
}

/** The tool message of a call's result, with the image it read (for a vision model). */
export function toolMessage(toolCallId: string, content: string, image?: ImageRef): LlmMessage {
  return { role: 'tool', toolCallId, content, ...(image ? { image } : {}) };
}

/** Carries out one tool call; `why` is what the model wrote before it (an approval shows it). */
export async function runToolCall(ctx: StepToolsContext, call: LlmToolCall, why?: string): Promise<CallResult> {
  if (call.name === FINISH_STEP) {
    const parsed = parseFinishStepArgs(call.arguments, ctx.input.node?.output);
    if (!parsed.ok) return { content: `error: ${parsed.error}`, failed: true };
    const { ok: _, result, ...extras } = parsed;
    return { content: 'ok', finished: result, ...(Object.keys(extras).length ? { extras } : {}) };
  }
  if (call.name === ASK_USER && ctx.input.canAsk) {
    const parsed = parseAskArgs(call.arguments);
    if (!parsed.ok) {
      return { content: `error: invalid ask_user arguments:\n${parsed.errors.join('\n')}`, failed: true };
    }
    return { content: JSON.stringify(await ctx.askAgent(call.id, toInteractionSpec(parsed.request))) };
  }
  const tool = ctx.input.tools.find((t) => t.name === call.name);
  if (!tool) return { content: `error: unknown tool "${call.name}"`, failed: true };
  // Held by the agent: no new tool call starts. No await when free: replay stays the same.
  if (ctx.link.mustWait()) await ctx.link.whenFree();
  const started = workflowTime();
  const outcome = await runCatalogueTool(ctx, tool, call, why);
  const record: ToolCallRecord = {
    callId: call.id,
    name: call.name,
    arguments: call.arguments.slice(0, MAX_RECORDED_ARGUMENTS),
    outcome: outcome.ok ? 'ok' : 'error',
    // The tool's own time: not the wait for its approval (a call that never ran took none).
    durationMs: outcome.ranFrom === undefined ? 0 : workflowTime() - outcome.ranFrom,
    ...(outcome.policy
      ? { policy: { decision: outcome.policy.decision, rule: outcome.policy.rule, at: started } }
      : {}),
    ...(outcome.reusedApproval ? { approvalReused: reusedOf(outcome.reusedApproval, started) } : {}),
  };
  const failed = !outcome.ok && !outcome.rejected;
  const shown = outcome.ok ? withImage(outcome.output, outcome.image, ctx.input.model?.vision) : undefined;
  const content = shown ? shown.content : `error: ${outcome.output}`;
  return {
    content,
    record,
    ...(shown?.image ? { image: shown.image } : {}),
    ...(failed ? { failed } : {}),
    ...(outcome.rejected ? { rejected: true } : {}),
  };
}

/** What a call's record says of the earlier approval it ran on. */
const reusedOf = ({ agentId, interactionId, by }: EarlierApproval, at: number) => ({ agentId, interactionId, by, at });

/** Validates, approves and runs one call of a catalogue tool. */
async function runCatalogueTool(
  ctx: StepToolsContext,
  tool: ToolInfo,
  call: LlmToolCall,
  why: string | undefined,
): Promise<ToolOutcome> {
  const started = workflowTime();
  const checked = validateArguments(tool.name, tool.parameters, call.arguments, regexToRun(tool.parameters));
  if (!checked.ok) return { ok: false, output: checked.error };
  if (NESTED_TOOLS.includes(tool.name)) return { ...(await runNestedCall(ctx, call, checked.value)), ranFrom: started };
  const effect = callEffect(tool, checked.value);
  const approval = await approveCall(ctx, tool, call, checked.value, effect, why);
  if (!approval.run) return approval.outcome;
  const outcome = await executeCall(ctx, tool, call, effect.idempotent);
  const reused = approval.reused ? { reusedApproval: approval.reused } : {};
  return approval.policy ? { ...outcome, policy: approval.policy, ...reused } : { ...outcome, ...reused };
}

/** Runs an approved call as the `runTool` activity. */
async function executeCall(
  ctx: StepToolsContext,
  tool: ToolInfo,
  call: LlmToolCall,
  idempotent: boolean,
): Promise<ToolOutcome> {
  const { step, agentId, workspace } = ctx.input;
  // Paused while the approval waited: the approved call starts only once the hold lifts.
  if (ctx.link.mustWait()) await ctx.link.whenFree();
  const ranFrom = workflowTime();
  try {
    const outcome = await runTool.executeWithOptions(
      {
        summary: `${step.id} · ${tool.name}`,
        // A side effect that cannot honour its idempotency key is never retried blindly.
        ...(idempotent ? {} : { retry: { maximumAttempts: 1 } }),
      },
      [
        {
          agentId,
          stepId: step.id,
          callId: call.id,
          name: tool.name,
          arguments: call.arguments,
          // The agent's own folder (config/agent-workspace.ts); steps of agents started before it: the root.
          ...(workspace ? { scope: workspace } : {}),
        },
      ],
    );
    return { ...outcome, ranFrom };
  } catch (err) {
    // Retries used up on a call that is safe to repeat: the model hears of it and may try
    // again. A lost non-idempotent call fails the step instead — nobody knows if it happened.
    if (!idempotent || isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    return { ok: false, output: err.cause?.message ?? err.message, ranFrom };
  }
}
