/**
 * The zod schemas of interactions — questions to a human — and their answers, as the agent
 * state keeps them; interaction-types.ts derives the TypeScript types from them. They describe
 * the stored shape: the rules an incoming answer or an `ask_user` call must meet are checked
 * by validate-answer.ts and ask-schema.ts. Pure zod: the workflow sandbox, the HTTP API (its
 * OpenAPI document) and tests share it.
 */
import { z } from 'zod';
import { planSchema } from '../plan/plan-schema';
import { FORM_FIELD_TYPES } from './form-field-types';
import { actorSchema } from './answer-input-schema';

export { answerInputSchema } from './answer-input-schema';

/** A typed form field written by the LLM (`ask.form`), with only the properties its type uses. */
export const formFieldSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(FORM_FIELD_TYPES),
  required: z.boolean(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  maxLength: z.number().optional(),
  options: z.array(z.string()).optional(),
});

/** The `ask_user` tool's arguments, after validation. */
export const askRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('query'), prompt: z.string() }),
  z.object({ kind: z.literal('select'), prompt: z.string(), options: z.array(z.string()), multiple: z.boolean() }),
  z.object({ kind: z.literal('form'), prompt: z.string(), fields: z.array(formFieldSchema) }),
]);

/** What a `tool.approval` shows: the call, and the digest of its arguments an answer must carry. */
export const approvalRequestSchema = z.object({
  tool: z.string(),
  arguments: z.unknown(),
  digest: z.string(),
  why: z.string().optional(),
  /** The approval policy's rule that asked for this approval (absent without a policy). */
  rule: z.string().optional(),
  /** The role an approver needs (besides admin), from the policy's `@role`. */
  role: z.string().optional(),
  /** How many distinct people must approve (the policy's `@approvers`); 1 when absent. */
  approvers: z.number().int().min(1).optional(),
});

const prompt = z.string();
const querySpec = z.object({ kind: z.literal('ask.query'), prompt });
const selectSpec = z.object({
  kind: z.literal('ask.select'),
  prompt,
  options: z.array(z.string()),
  multiple: z.boolean(),
});
const formSpec = z.object({ kind: z.literal('ask.form'), prompt, fields: z.array(formFieldSchema) });
const planCheckSpec = z.object({ kind: z.literal('plan.check'), prompt, plan: planSchema, revision: z.number() });
const approvalSpec = approvalRequestSchema.extend({ kind: z.literal('tool.approval'), prompt });
const stepFailureSpec = z.object({ kind: z.literal('step.failure'), prompt, error: z.string() });
const budgetSpec = z.object({
  kind: z.literal('budget'),
  prompt,
  usedTokens: z.number(),
  /** The token budget in force, when there is one. */
  tokenBudget: z.number().optional(),
  /** The cost so far in US dollars; null when unknown (a model without a price). */
  costUsd: z.number().nullable().optional(),
  /** The cost budget in force, when there is one. */
  costBudgetUsd: z.number().optional(),
});

const deadlineSpec = z.object({
  kind: z.literal('deadline'),
  prompt,
  /** The deadline that was reached (workflow time, ms since the epoch). */
  deadlineAt: z.number(),
});

/** The question part of an interaction, by kind. */
export const interactionSpecSchema = z.discriminatedUnion('kind', [
  querySpec,
  selectSpec,
  formSpec,
  planCheckSpec,
  approvalSpec,
  stepFailureSpec,
  budgetSpec,
  deadlineSpec,
]);

/** The answer each interaction kind takes, normalised as the audit record keeps it. */
export const answerSchemas = {
  'ask.query': z.object({ text: z.string() }),
  'ask.select': z.object({ values: z.array(z.string()) }),
  'ask.form': z.object({ values: z.record(z.string(), z.unknown()) }),
  'plan.check': z.object({
    decision: z.enum(['confirm', 'revise', 'edit', 'cancel']),
    feedback: z.string().optional(),
    plan: planSchema.optional(),
  }),
  'tool.approval': z.object({
    decision: z.enum(['approve', 'reject']),
    digest: z.string(),
    reason: z.string().optional(),
  }),
  'step.failure': z.object({ decision: z.enum(['retry', 'skip', 'abort']) }),
  budget: z.object({
    decision: z.enum(['raise', 'stop']),
    tokenBudget: z.number().optional(),
    costBudgetUsd: z.number().optional(),
  }),
  deadline: z.object({ decision: z.enum(['extend', 'stop']), deadlineMs: z.number().optional() }),
} as const satisfies Record<z.infer<typeof interactionSpecSchema>['kind'], z.ZodType>;

/** Any answer; which one an interaction takes follows from its kind ({@link answerSchemas}). */
export const answerSchema = z.union([
  answerSchemas['ask.query'],
  answerSchemas['ask.select'],
  answerSchemas['ask.form'],
  answerSchemas['plan.check'],
  answerSchemas['tool.approval'],
  answerSchemas['step.failure'],
  answerSchemas.budget,
  answerSchemas.deadline,
]);

/** Where an interaction is: waiting for a person, answered (the audit record), or timed out. */
export const INTERACTION_STATUSES = ['open', 'answered', 'expired'] as const;

/** What the state adds to the question: id, status, times and, once answered, the audit record. */
const record = {
  id: z.string(),
  status: z.enum(INTERACTION_STATUSES),
  /** The step that asked; absent for the agent's own questions. */
  stepId: z.string().optional(),
  /** Workflow time (ms since epoch) it was opened. */
  createdAt: z.number(),
  expiresAt: z.number().optional(),
  /**
   * The role an answer needs (besides admin): the agent's `answerRoles` for this kind, or an
   * approval policy's `@role`; absent: `approver` (answer-roles.ts).
   */
  role: z.string().optional(),
  answer: answerSchema.optional(),
  by: z.string().optional(),
  /** Who answered and how (absent on records made before it was kept, and on expiry answers). */
  actor: actorSchema.optional(),
  answeredAt: z.number().optional(),
  /** The approvals given so far of an approval that needs several people, each with who and when. */
  approvals: z.array(z.object({ actor: actorSchema, at: z.number() })).optional(),
};

/** An interaction as kept in agent state: its question and the record around it. */
export const interactionSchema = z.discriminatedUnion('kind', [
  querySpec.extend(record),
  selectSpec.extend(record),
  formSpec.extend(record),
  planCheckSpec.extend(record),
  approvalSpec.extend(record),
  stepFailureSpec.extend(record),
  budgetSpec.extend(record),
  deadlineSpec.extend(record),
]);
