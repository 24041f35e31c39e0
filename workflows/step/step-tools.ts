/**
 * How a step carries out the model's tool calls: `finish_step`, `ask_user` and the approval of
 * write tools go through the agent; `model` and `sub_agent` run here as an LLM call and a
 * nested agent; every other tool is validated against its schema in workflow code, approved if
 * the call writes, and run as the `runTool` activity — with one attempt when the call is not
 * idempotent. Both are decided per call (`callEffect`): http_fetch with GET reads, with POST writes.
 */
import { ActivityFailure, CancelledFailure, executeChild, isCancellation, patched } from '@temporalio/workflow';
import { decideToolCall, llmCall, runTool } from '../activity-proxies';
import { AGENT_WORKFLOW_TYPE, type NestedAgentWorkflow } from '../agent-contract';
import { asLimits, isSpent, type BudgetLeft } from '../budget-left';
import { subAgentWorkflowId } from '../ids';
import { parseAskArgs } from '../interactions/ask-schema';
import { toInteractionSpec } from '../interactions/ask-user-tool';
import type { AnswerOf, SpecOf } from '../interactions/answer-types';
import type { InteractionKind } from '../interactions/interaction-types';
import type { LlmToolCall, TokenUsage } from '../llm-types';
import { approvalDigest } from '../tools/approval-digest';
import { callEffect } from '../tools/call-effect';
import { AUTO_APPROVE_RULE, type PolicyDecision } from '../tools/policy-decision';
import { modelArgsSchema, subAgentArgsSchema } from '../tools/builtin-tools';
import { cutOutput } from '../tools/cut-output';
import { parseFinishStepArgs } from '../tools/finish-step';
import { ASK_USER, FINISH_STEP, type ToolCallRecord, type ToolInfo } from '../tools/tool-types';
import { validateArguments } from '../tools/validate-arguments';
import type { AgentLink } from './agent-link';
import { type LoopGuards } from './loop-guards';
import type { StepInput } from './step-types';
import { workflowTime } from '../workflow-time';
import { PATCHES } from '../patches';

/** What one tool call gave back: the tool message, a record, and the result if it finished. */
export interface CallResult {
  content: string;
  record?: ToolCallRecord;
  finished?: string;
  /** The call failed in a way that counts against the step's tool error budget (a person's rejection does not). */
  failed?: boolean;
}

export interface StepToolsContext {
  input: StepInput;
  /** Opens an interaction at the agent and waits for the answer. */
  askAgent<K extends InteractionKind>(requestId: string, spec: SpecOf<K>): Promise<AnswerOf<K>>;
  /** Adds token usage of sub-calls (model, sub_agent) to the step. */
  addUsage(usage: TokenUsage): void;
  /** The line to the agent: whether it holds the step, and the nested agents to pass a hold to. */
  link: Pick<AgentLink, 'mustWait' | 'whenFree' | 'subAgents' | 'passHold' | 'budgetLeft'>;
  /** The step's loop guards: approvals already decided in this step are not asked again. */
  guards?: LoopGuards;
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
    return parsed.ok ? { content: 'ok', finished: parsed.result } : { content: `error: ${parsed.error}`, failed: true };
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
  const outcome = await runCatalogueTool(ctx, tool, call);
  const record: ToolCallRecord = {
    callId: call.id,
    name: call.name,
    arguments: call.arguments.slice(0, MAX_RECORDED_ARGUMENTS),
    outcome: outcome.ok ? 'ok' : 'error',
    durationMs: workflowTime() - started,
    ...(outcome.policy
      ? { policy: { decision: outcome.policy.decision, rule: outcome.policy.rule, at: started } }
      : {}),
  };
  const failed = !outcome.ok && !outcome.rejected;
  return { content: outcome.ok ? outcome.output : `error: ${outcome.output}`, record, ...(failed ? { failed } : {}) };
}

async function runCatalogueTool(
  ctx: StepToolsContext,
  tool: ToolInfo,
  call: LlmToolCall,
): Promise<{ ok: boolean; output: string; policy?: PolicyDecision; rejected?: boolean }> {
  const checked = validateArguments(tool.name, tool.parameters, call.arguments);
  if (!checked.ok) return { ok: false, output: checked.error };
  if (tool.name === 'model' || tool.name === 'sub_agent') {
    // What the budget has left, when the agent told the step (metered agents of this release).
    const left = ctx.link.budgetLeft();
    const budgeted = left !== undefined && patched(PATCHES.nestedBudget) ? left : undefined;
    if (budgeted && isSpent(budgeted)) {
      // The step's own spend in this round used what was left: the agent will hold it at its report.
      const output = 'not run: the agent’s budget is spent. Finish with what you have, or try again later.';
      return { ok: false, output, rejected: true };
    }
    if (tool.name === 'model') return runModel(ctx, modelArgsSchema.parse(checked.value));
    return runSubAgent(ctx, call.id, subAgentArgsSchema.parse(checked.value), budgeted);
  }
  const effect = callEffect(tool, checked.value);
  // The worker's approval policy decides the call (an activity: Cedar is no workflow code).
  // Catalogues made without a policy never get here, so their histories replay unchanged.
  const policy =
    tool.policy && patched(PATCHES.approvalPolicy)
      ? await decide(ctx, tool, effect.effect, checked.value)
      : autoApproval(tool, effect.effect);
  if (policy?.decision === 'deny') {
    const output = `the approval policy (rule "${policy.rule}") denies this call. Find another way or finish without it.`;
    return { ok: false, output, policy };
  }
  if (policy ? policy.decision === 'ask' : effect.needsApproval) {
    const digest = approvalDigest(tool.name, checked.value);
    const decided = ctx.guards?.approvalOf(digest);
    if (decided === undefined || !patched(PATCHES.stepLoopGuards)) {
      const answer = await ctx.askAgent<'tool.approval'>(call.id, {
        kind: 'tool.approval',
        prompt: `Allow ${tool.name}?`,
        tool: tool.name,
        arguments: checked.value,
        digest,
        ...(policy ? { rule: policy.rule } : {}),
        ...(policy?.role ? { role: policy.role } : {}),
        ...(policy?.approvers ? { approvers: policy.approvers } : {}),
      });
      ctx.guards?.rememberApproval(digest, answer.decision === 'approve' ? 'approve' : 'reject');
      if (answer.decision !== 'approve') {
        const reason = answer.reason ? `: ${answer.reason}` : '';
        return {
          ok: false,
          output: `the user rejected this call${reason}. Find another way or finish without it.`,
          policy,
          rejected: true,
        };
      }
    } else {
      // A person's decision on these exact arguments stands for the rest of the step.
      ctx.guards?.note(
        `${tool.name} ${digest}: ${decided === 'approve' ? 'approved' : 'rejected'} before in this step, not asked again`,
      );
      if (decided === 'reject') {
        const output = 'a person already rejected this exact call in this step. Find another way or finish without it.';
        return { ok: false, output, policy };
      }
    }
  }
  const { step, agentId } = ctx.input;
  // Paused while the approval waited: the approved call starts only once the hold lifts.
  if (ctx.link.mustWait()) await ctx.link.whenFree();
  try {
    const outcome = await runTool.executeWithOptions(
      {
        summary: `${step.id} · ${tool.name}`,
        // A side effect that cannot honour its idempotency key is never retried blindly.
        ...(effect.idempotent ? {} : { retry: { maximumAttempts: 1 } }),
      },
      [{ agentId, stepId: step.id, callId: call.id, name: tool.name, arguments: call.arguments }],
    );
    return policy ? { ...outcome, policy } : outcome;
  } catch (err) {
    // Retries used up on a call that is safe to repeat: the model hears of it and may try
    // again. A lost non-idempotent call fails the step instead — nobody knows if it happened.
    if (!effect.idempotent || isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    return { ok: false, output: err.cause?.message ?? err.message, ...(policy ? { policy } : {}) };
  }
}

/** Asks the worker's approval policy about one call. */
function decide(
  ctx: StepToolsContext,
  tool: ToolInfo,
  effect: 'read' | 'write',
  args: unknown,
): Promise<PolicyDecision> {
  const { step, principal } = ctx.input;
  return decideToolCall.executeWithOptions({ summary: `${step.id} · policy · ${tool.name}` }, [
    { tool: tool.name, effect, arguments: args, ...(principal ? { principal } : {}) },
  ]);
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
async function runSubAgent(ctx: StepToolsContext, callId: string, args: { task: string }, left?: BudgetLeft) {
  const { input } = ctx;
  const workflowId = subAgentWorkflowId(input.agentId, input.step.id, callId);
  ctx.link.subAgents.add(workflowId); // a hold of this step is passed on while it runs
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
        },
      ],
      staticSummary: `sub-agent of ${input.step.id}: ${args.task.slice(0, 80)}`,
    });
    ctx.addUsage(result.usage);
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
    ctx.link.subAgents.delete(workflowId);
  }
}

/** A write CAIRN_AUTO_APPROVE lets run unasked (no policy file), recorded as that rule's decision. */
function autoApproval(tool: ToolInfo, effect: 'read' | 'write'): PolicyDecision | undefined {
  return tool.autoApproved && effect === 'write' ? { decision: 'allow', rule: AUTO_APPROVE_RULE } : undefined;
}
