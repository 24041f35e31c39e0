/**
 * Why an answer was refused, as data: the code, the offending field and the message. The answer
 * check returns it, the `answer` update's validator throws it as a coded failure (failures.ts) and
 * clients read the code and field back — never the message. Pure.
 */
import type { ErrorCode } from '../../base/error-codes';

/** The codes an answer is refused with — the one list: the validator, failures.ts and clients read it. */
export const ANSWER_REJECTION_CODES = [
  'NOT_OPEN',
  'INVALID_ANSWER',
  'SAME_APPROVER',
  'ROLE_REQUIRED',
] as const satisfies readonly ErrorCode[];

/** A code an answer is refused with. */
export type AnswerRejectionCode = (typeof ANSWER_REJECTION_CODES)[number];

/** Whether `code` is one an answer is refused with. */
export function isAnswerRejectionCode(code: string | null | undefined): code is AnswerRejectionCode {
  return (ANSWER_REJECTION_CODES as readonly string[]).includes(code ?? '');
}

/**
 * An answer's rejection: `NOT_OPEN` when the interaction is unknown, answered or expired (field
 * `interactionId`), else `INVALID_ANSWER` with the first broken rule's path (`answer`,
 * `answer.values.pages`, `answer.digest`, …). `error` is the message shown to people.
 */
export interface AnswerRejection {
  ok: false;
  code: AnswerRejectionCode;
  field: string;
  error: string;
}
