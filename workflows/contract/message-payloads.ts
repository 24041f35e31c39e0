/**
 * The parsers of every message payload a workflow receives, each with the schema defined beside
 * its message (messages.ts). Signals can come from anywhere — the Temporal UI's signal form,
 * `temporal workflow signal`, a buggy client — so a handler parses its payload first and a bad
 * one changes nothing: it never throws inside the workflow (which would fail the workflow task
 * on every retry and wedge the agent).
 */
import { z } from 'zod';
import { answerInputSchema } from '../model/interactions/answer-input-schema';
import { parseAskRequest } from '../model/interactions/ask-schema';
import { toInteractionSpec } from '../model/interactions/ask-user-tool';
import { STEP_KINDS, findModule } from '../model/interactions/kinds/registry';
import { budgetLeftSchema, type BudgetLeft } from '../model/llm/budget-left';
import type { AnswerRejection } from '../model/interactions/answer-rejection';
import type { AnswerInput, InteractionSpec } from '../model/interactions/interaction-types';
import { firstIssuePath, issueLines } from '../base/issue-lines';
import {
  actedRequestSchema,
  holdRequestSchema,
  stepAnswerSchema,
  stepHoldSchema,
  stepInteractionRequestSchema,
  stepProgressSchema,
  type HoldRequest,
  type StepAnswer,
  type StepHold,
  type StepInteractionRequest,
  type StepProgress,
} from './messages';

/** A parsed payload, or why it was refused (`path: message` lines joined). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

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

/** The internal `stepProgress` signal's payload (step → agent). */
export const parseStepProgress = (value: unknown): Parsed<StepProgress> => parseWith(stepProgressSchema, value);

/** The internal `stepAnswer` signal's payload (agent → step); the step checks the answer's kind. */
export const parseStepAnswer = (value: unknown): Parsed<StepAnswer> => parseWith(stepAnswerSchema, value);

/**
 * The public `pause` and `resume` signals' payload; absent means neither who nor why. An
 * `actor` in it is dropped (zod strips unknown keys): a signal cannot claim a principal.
 */
export const parseHoldRequest = (value: unknown): Parsed<HoldRequest> =>
  value === undefined || value === null ? { ok: true, value: {} } : parseWith(holdRequestSchema, value);

/**
 * The payload of the `pause`, `resume` and `recordCancel` updates: as the signals', plus the
 * actor Cairn's HTTP API authenticated.
 */
export const parseActedRequest = (value: unknown): Parsed<HoldRequest> =>
  value === undefined || value === null ? { ok: true, value: {} } : parseWith(actedRequestSchema, value);

/** The internal `stepHold` signal's payload (agent → step). */
export const parseStepHold = (value: unknown): Parsed<StepHold> => parseWith(stepHoldSchema, value);

/** The internal `nestedBudget` signal's payload (step → nested agent). */
export const parseNestedBudget = (value: unknown): Parsed<BudgetLeft> => parseWith(budgetLeftSchema, value);

/** The request with its spec read as far as its kind; parseStepSpec reads the rest by its kind's module. */
const stepInteractionEnvelope = stepInteractionRequestSchema.extend({ spec: z.looseObject({ kind: z.string() }) });

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
