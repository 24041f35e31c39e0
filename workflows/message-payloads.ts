/**
 * zod schemas for every message payload a workflow receives. Signals can come from anywhere —
 * the Temporal UI's signal form, `temporal workflow signal`, a buggy client — so a handler
 * parses its payload first and a bad one changes nothing: it never throws inside the workflow
 * (which would fail the workflow task on every retry and wedge the agent).
 */
import { z } from 'zod';
import { actorSchema, answerInputSchema } from './interactions/answer-input-schema';
import { parseAskRequest } from './interactions/ask-schema';
import { toInteractionSpec } from './interactions/ask-user-tool';
import { STEP_KINDS, findModule } from './interactions/kinds/registry';
import type { BudgetLeft } from './budget-left';
import type { AnswerRejection } from './interactions/answer-rejection';
import type { Answer, AnswerInput, InteractionSpec } from './interactions/interaction-types';
import { firstIssuePath, issueLines } from './issue-lines';
import type { HoldRequest, StepAnswer, StepHold, StepInteractionRequest, StepProgress } from './messages';
import { tokenUsageSchema, toolCallRecordSchema } from './state/step-run-schema';
import { MAX_PARTIAL_CHARS } from './step/partial-result';

/** A parsed payload, or why it was refused (`path: message` lines joined). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const MAX_ID = 200;
const id = z.string().min(1, 'must not be empty').max(MAX_ID, `must be at most ${MAX_ID} characters`);
const count = z.number().int('must be a whole number').nonnegative('must not be negative');

/** Parses `value` with `schema`; never throws. */
function parseWith<T>(schema: z.ZodType<T>, value: unknown): Parsed<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: issueLines(parsed.error, 'payload').join('; ') };
}

/**
 * The public `answer` signal's and update's payload; the answer itself is checked per kind later.
 * A malformed payload is refused like a bad answer: `INVALID_ANSWER`, naming its first bad field.
 */
export function parseAnswerInput(value: unknown): { ok: true; value: AnswerInput } | AnswerRejection {
  const parsed = answerInputSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const field = firstIssuePath(parsed.error) || 'payload';
  return { ok: false, code: 'INVALID_ANSWER', field, error: issueLines(parsed.error, 'payload').join('; ') };
}

const stepProgressSchema = z.object({
  stepId: id,
  round: count,
  model: z.string().optional(),
  usage: tokenUsageSchema,
  toolCalls: z.array(toolCallRecordSchema),
  notices: z
    .array(z.object({ type: z.enum(['llm.cut', 'llm.notice', 'step.guard']), message: z.string().max(2000) }))
    .max(100)
    .optional(),
  cancelled: z.literal(true).optional(),
  partial: z
    .string()
    .max(2 * MAX_PARTIAL_CHARS)
    .optional(),
});

/** The internal `stepProgress` signal's payload (step → agent). */
export const parseStepProgress = (value: unknown): Parsed<StepProgress> => parseWith(stepProgressSchema, value);

const stepAnswerSchema = z.object({
  requestId: id,
  interactionId: id,
  // An object; the step checks it against the kind it asked for.
  answer: z.custom<Answer>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
    error: 'must be an object',
  }),
  by: z.string().optional(),
  expired: z.literal('fail').optional(),
});

/** The internal `stepAnswer` signal's payload (agent → step); the step checks the answer's kind. */
export const parseStepAnswer = (value: unknown): Parsed<StepAnswer> => parseWith(stepAnswerSchema, value);

const holdRequestSchema = z.object({ by: z.string().max(MAX_ID).optional(), reason: z.string().max(2000).optional() });

/**
 * The public `pause` and `resume` signals' payload; absent means neither who nor why. An
 * `actor` in it is dropped (zod strips unknown keys): a signal cannot claim a principal.
 */
export const parseHoldRequest = (value: unknown): Parsed<HoldRequest> =>
  value === undefined || value === null ? { ok: true, value: {} } : parseWith(holdRequestSchema, value);

const actedRequestSchema = holdRequestSchema.extend({ actor: actorSchema.optional() });

/**
 * The payload of the `pause`, `resume` and `recordCancel` updates: as the signals', plus the
 * actor Cairn's HTTP API authenticated.
 */
export const parseActedRequest = (value: unknown): Parsed<HoldRequest> =>
  value === undefined || value === null ? { ok: true, value: {} } : parseWith(actedRequestSchema, value);

const budgetLeftSchema = z.object({ tokens: z.number().optional(), costUsd: z.number().optional() });

/** The internal `stepHold` signal's payload (agent → step). */
export const parseStepHold = (value: unknown): Parsed<StepHold> =>
  parseWith(z.object({ held: z.boolean(), round: count.optional(), left: budgetLeftSchema.optional() }), value);

/** The internal `nestedBudget` signal's payload (step → nested agent). */
export const parseNestedBudget = (value: unknown): Parsed<BudgetLeft> => parseWith(budgetLeftSchema, value);

const stepInteractionEnvelope = z.object({
  stepId: id,
  requestId: id,
  spec: z.looseObject({ kind: z.string() }),
});

/**
 * The internal `stepInteraction` signal's payload (step → agent). A step may open questions —
 * held to the very rules of `ask_user`, so an `ask.select` always has options — and approvals of
 * its own tool calls; nothing else.
 */
export function parseStepInteraction(value: unknown): Parsed<StepInteractionRequest> {
  const envelope = parseWith(stepInteractionEnvelope, value);
  if (!envelope.ok) return envelope;
  const { stepId, requestId, spec } = envelope.value;
  const parsedSpec = parseStepSpec(spec);
  return parsedSpec.ok ? { ok: true, value: { stepId, requestId, spec: parsedSpec.value } } : parsedSpec;
}

/** A step's question, by the rules of its kind's module: `ask_user`'s for a question, else its step schema. */
function parseStepSpec(spec: { kind: string } & Record<string, unknown>): Parsed<InteractionSpec> {
  const module = findModule(spec.kind);
  if (module?.askUser !== undefined) {
    const request = parseAskRequest({ ...spec, kind: module.askUser.kind }, 'spec', 'spec');
    if (!request.ok) return { ok: false, error: request.errors.join('; ') };
    return { ok: true, value: toInteractionSpec(request.request) };
  }
  if (module?.fromStep === undefined) return { ok: false, error: `spec.kind: must be one of ${STEP_KINDS.join(', ')}` };
  const parsed = module.fromStep.safeParse(spec);
  // The schema of this very kind passed it: a question of that kind.
  if (parsed.success) return { ok: true, value: parsed.data as InteractionSpec };
  return { ok: false, error: issueLines(parsed.error, 'spec', 'spec').join('; ') };
}
