/**
 * What an approval policy decides for one tool call (docs/operations.md#approval-policies): run
 * it (`allow`), ask a person (`ask`, optionally naming the role and how many distinct people must
 * approve) or refuse it (`deny`, the model is told). Computed by the `decideToolCall` activity
 * (Cedar runs there, not in workflow code); pure zod, shared with the workflows.
 */
import { z } from 'zod';
import { principalSchema } from '../principal';

/** The three outcomes of a policy. */
export const POLICY_DECISIONS = ['allow', 'ask', 'deny'] as const;

/** The id of the decision made when no rule of the policy matches: the tool's own effect decides. */
export const DEFAULT_RULE = 'default';

/**
 * The rule CAIRN_AUTO_APPROVE stands for: a Cedar rule in a policy file, and — without one — the
 * workflow's own record of each write it let run unasked.
 */
export const AUTO_APPROVE_RULE = 'CAIRN_AUTO_APPROVE';

/** One decision with the rule (the policy's `@id`) that made it. */
export const policyDecisionSchema = z.object({
  decision: z.enum(POLICY_DECISIONS),
  rule: z.string(),
  /** With `ask`: the role a person needs to answer (besides `admin`). */
  role: z.string().optional(),
  /** With `ask`: how many distinct people must approve (2 for the two-person rule). */
  approvers: z.number().int().min(1).optional(),
  /** With `ask`: `never` when a rule says a thread's earlier approval never stands for this call. */
  reuse: z.literal('never').optional(),
});
export type PolicyDecision = z.infer<typeof policyDecisionSchema>;

/** Input of the `decideToolCall` activity. */
export const policyCallInputSchema = z.object({
  tool: z.string(),
  /** The effect of this call (callEffect): http_fetch with GET reads. */
  effect: z.enum(['read', 'write']),
  /** The validated arguments. */
  arguments: z.unknown(),
  /** Who started the agent, when known. */
  principal: principalSchema.optional(),
});
/** Input of the `decideToolCall` activity. */
export type PolicyCallInput = z.infer<typeof policyCallInputSchema>;
