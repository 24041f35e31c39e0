/**
 * Whether a step may run a catalogue tool call: the worker's approval policy (the
 * `decideToolCall` activity, where the catalogue says a policy decides), a CAIRN_AUTO_APPROVE
 * rule, or a person's `tool.approval` through the agent — asked once per digest in a step (the
 * loop guards remember a decision). Deciding only: running the call is step-tools.ts's.
 */
import { isCancellation, patched } from '@temporalio/workflow';
import { decideToolCall, previewToolCall } from '../runtime/activity-proxies';
import type { LlmToolCall } from '../model/llm/llm-types';
import { PATCHES } from '../base/patches';
import { approvalDigest } from './approval-digest';
import type { ApprovalPreview } from '../model/tools/approval-preview';
import type { CallEffect } from '../model/tools/call-effect';
import { AUTO_APPROVE_RULE, type PolicyDecision } from '../model/tools/policy-decision';
import type { ToolInfo } from '../model/tools/tool-types';
import type { StepToolsContext, ToolOutcome } from './step-tool-types';
import { matchingApproval, type EarlierApproval } from '../model/tools/approval-reuse';

/**
 * The call may run (with the policy decision to record, if one decided, and the earlier approval
 * it runs on, if one stands for it), or it may not (its outcome).
 */
export type Approval =
  { run: true; policy?: PolicyDecision; reused?: EarlierApproval } | { run: false; outcome: ToolOutcome };

/**
 * Decides whether `call` of `tool` (arguments `args`, effect `effect`) may run; `why`, the model's
 * text before the call, goes with a person's approval.
 */
export async function approveCall(
  ctx: StepToolsContext,
  tool: ToolInfo,
  call: LlmToolCall,
  args: unknown,
  effect: CallEffect,
  why?: string,
): Promise<Approval> {
  // The worker's approval policy decides the call (an activity: Cedar is no workflow code).
  // Catalogues made without a policy never get here, so their histories replay unchanged.
  const policy =
    tool.policy && patched(PATCHES.approvalPolicy)
      ? await decide(ctx, tool, effect.effect, args)
      : autoApproval(tool, effect.effect);
  if (policy?.decision === 'deny') {
    const output = `the approval policy (rule "${policy.rule}") denies this call. Find another way or finish without it.`;
    return { run: false, outcome: { ok: false, output, policy } };
  }
  if (!(policy ? policy.decision === 'ask' : effect.needsApproval)) return { run: true, ...(policy ? { policy } : {}) };
  const shown = { why, effect: effect.effect, idempotent: effect.idempotent };
  const asked = await askPerson(ctx, tool, call, args, policy, shown);
  return asked ?? { run: true, ...(policy ? { policy } : {}) };
}

/** A person's decision on this call: undefined when approved, else the call's refused outcome. */
async function askPerson(
  ctx: StepToolsContext,
  tool: ToolInfo,
  call: LlmToolCall,
  args: unknown,
  policy: PolicyDecision | undefined,
  /** The model's text before the call, whether it writes (a write gets a preview), whether it may run twice. */
  shown: { why: string | undefined; effect: 'read' | 'write'; idempotent: boolean },
): Promise<Approval | undefined> {
  const digest = approvalDigest(tool.name, args);
  const decided = ctx.guards?.approvalOf(digest);
  if (decided !== undefined && patched(PATCHES.stepLoopGuards)) {
    // A person's decision on these exact arguments stands for the rest of the step.
    ctx.guards?.note(
      `${tool.name} ${digest}: ${decided === 'approve' ? 'approved' : 'rejected'} before in this step, not asked again`,
    );
    if (decided === 'approve') return undefined;
    const output = 'a person already rejected this exact call in this step. Find another way or finish without it.';
    return { run: false, outcome: { ok: false, output, ...(policy ? { policy } : {}) } };
  }
  // Approved earlier (the agent's input `context.approvals`) for this very call, under the same policy outcome,
  // of the same sender, for a call that may run twice — unless a rule says never.
  const outcome = { role: policy?.role, approvers: policy?.approvers };
  const sentBy = { sender: ctx.input.principal, idempotent: shown.idempotent };
  const reusable = policy?.reuse !== 'never';
  const earlier = reusable ? matchingApproval(ctx.input.approvals, digest, outcome, sentBy) : undefined;
  if (earlier) {
    const who = earlier.by.join(', ');
    ctx.guards?.note(
      `${tool.name} ${digest}: approved in ${earlier.interactionId} of ${earlier.agentId} (${who}), not asked again`,
    );
    return { run: true, ...(policy ? { policy } : {}), reused: earlier };
  }
  const preview = shown.effect === 'write' ? await previewOf(ctx, tool, args) : undefined;
  const answer = await ctx.askAgent<'tool.approval'>(call.id, {
    kind: 'tool.approval',
    prompt: `Allow ${tool.name}?`,
    tool: tool.name,
    arguments: args,
    digest,
    // Runs recorded before approvals said why sent the same signal without it (patched).
    ...(shown.why !== undefined && patched(PATCHES.approvalWhy) ? { why: shown.why } : {}),
    ...(preview ? { preview } : {}),
    ...(policy ? { rule: policy.rule } : {}),
    ...(policy?.role ? { role: policy.role } : {}),
    ...(policy?.approvers ? { approvers: policy.approvers } : {}),
  });
  ctx.guards?.rememberApproval(digest, answer.decision === 'approve' ? 'approve' : 'reject');
  if (answer.decision === 'approve') return undefined;
  const reason = answer.reason ? `: ${answer.reason}` : '';
  const output = `the user rejected this call${reason}. Find another way or finish without it.`;
  return { run: false, outcome: { ok: false, output, ...(policy ? { policy } : {}), rejected: true } };
}

/**
 * How a write would change its file, for the people deciding (a diff against the current file);
 * undefined when the worker cannot tell or the preview failed — the approval then shows the
 * arguments alone. Behind its patch: the activity is a command runs before did not issue.
 */
async function previewOf(ctx: StepToolsContext, tool: ToolInfo, args: unknown): Promise<ApprovalPreview | undefined> {
  if (!patched(PATCHES.approvalPreview)) return undefined;
  try {
    const preview = await previewToolCall.executeWithOptions(
      { summary: `${ctx.input.step.id} · preview · ${tool.name}` },
      [{ tool: tool.name, arguments: args, ...scopeOf(ctx) }],
    );
    return preview ?? undefined;
  } catch (err) {
    // A cancelled step stops here; any other failure only costs the preview.
    if (isCancellation(err)) throw err;
    return undefined;
  }
}

/** Where the previewed call would write: the agent's own folder, or (absent) the workspace root. */
function scopeOf({ input }: StepToolsContext): { agentId?: string; scope?: 'agent' } {
  return input.workspace ? { agentId: input.agentId, scope: input.workspace } : {};
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

/** A write CAIRN_AUTO_APPROVE lets run unasked (no policy file), recorded as that rule's decision. */
function autoApproval(tool: ToolInfo, effect: 'read' | 'write'): PolicyDecision | undefined {
  return tool.autoApproved && effect === 'write' ? { decision: 'allow', rule: AUTO_APPROVE_RULE } : undefined;
}
