/**
 * What an answer of each interaction kind looks like: its key, its shape for messages, and the
 * zod schema of its shape (the rules that depend on the interaction itself — options, form
 * fields, digest, tokens used — are checked in validate-answer.ts). Pure.
 */
import { z } from 'zod';
import type { InteractionKind } from './interaction-types';

/** Longest free text accepted in an answer (query text, feedback, reasons). */
const MAX_TEXT = 4000;

/** What each kind's answer looks like, for the "not an object" message. */
export const SHAPES: Record<InteractionKind, string> = {
  'ask.query': '{ text }',
  'ask.select': '{ values: [..] }',
  'ask.form': '{ values: { <key>: <value> } }',
  'plan.check': '{ decision: confirm | revise | edit | cancel, feedback?, plan? }',
  'tool.approval': '{ decision: approve | reject, digest, reason? }',
  'step.failure': '{ decision: retry | skip | abort }',
  budget: '{ decision: raise | stop, tokenBudget?, costBudgetUsd? }',
  deadline: '{ decision: extend | stop, deadlineMs? }',
};

/** The key every answer of a kind has: an answer without it is one of another kind (or none). */
export const KIND_KEYS: Record<InteractionKind, string> = {
  'ask.query': 'text',
  'ask.select': 'values',
  'ask.form': 'values',
  'plan.check': 'decision',
  'tool.approval': 'decision',
  'step.failure': 'decision',
  budget: 'decision',
  deadline: 'decision',
};

/** zod error options: `required` when the value is absent, else `must be <what>`. */
const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'required' : `must be ${what}`),
});

const decision = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

const optionalText = z
  .string(expected('a string'))
  .trim()
  .max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`)
  .optional();

export const querySchema = z.object({
  text: z
    .string(expected('a string'))
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`),
});
export const selectSchema = z.object({
  values: z.array(z.string(expected('a string')), expected('a list of option values')),
});
export const planCheckSchema = z.object({
  decision: decision(['confirm', 'revise', 'edit', 'cancel']),
  feedback: optionalText,
  plan: z.unknown().optional(),
});
export const approvalSchema = z.object({
  decision: decision(['approve', 'reject']),
  digest: z.string(expected('a string')),
  reason: optionalText,
});
export const failureSchema = z.object({ decision: decision(['retry', 'skip', 'abort']) });
export const deadlineSchema = z.object({
  decision: decision(['extend', 'stop']),
  deadlineMs: z.number(expected('a number')).int('must be a whole number').positive('must be positive').optional(),
});
export const budgetSchema = z.object({
  decision: decision(['raise', 'stop']),
  tokenBudget: z.number(expected('a number')).int('must be a whole number').optional(),
  costBudgetUsd: z.number(expected('a number')).optional(),
});
