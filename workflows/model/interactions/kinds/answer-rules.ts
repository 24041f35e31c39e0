/**
 * The pieces the kind modules build their answer rules from: zod messages in Cairn's wording
 * (`required`, `must be a string`, `must be one of …`), accepting and rejecting an answer, the
 * role sets `answerRoles` may name, and the answer of a question that expired. Pure.
 */
import { z } from 'zod';
import type { AnswerRejection } from '../answer-rejection';
import type { KindCheck, NoAnswer } from './kind-module';

/** Longest free text accepted in an answer (query text, feedback, reasons). */
export const MAX_TEXT = 4000;

/** Roles that steer an agent (its plan, its questions, its budget, …): the default set. */
export const STEERING_ROLES = ['operator', 'approver', 'admin'] as const;

/** Roles that own side effects: a tool approval is never given below `approver`. */
export const SIDE_EFFECT_ROLES = ['approver', 'admin'] as const;

/** What a question that expired unanswered records under `reject` (or `default` without defaults). */
export const NO_ANSWER: NoAnswer = { text: '(no answer: the question expired)' };

/** zod error options: `required` when the value is absent, else `must be <what>`. */
export const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'required' : `must be ${what}`),
});

/** A `decision` among `values`. */
export const decision = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

/** Optional free text, trimmed. */
export const optionalText = z
  .string(expected('a string'))
  .trim()
  .max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`)
  .optional();

/** Quotes a value for a message, escaping as JSON does. */
export const quote = (value: string): string => JSON.stringify(value);

/** The answer is accepted, as `answer`. */
export const accept = <A>(answer: A): KindCheck<A> => ({ ok: true, answer });

/**
 * The answer breaks a rule.
 * @param path where, inside the answer (`values.pages`); empty for the answer itself.
 */
export const invalid = (path: string, error: string): AnswerRejection => ({
  ok: false,
  code: 'INVALID_ANSWER',
  field: path ? `answer.${path}` : 'answer',
  error,
});
