/**
 * Why an answer was refused, as data: the code, the offending field and the message. The answer
 * check returns it, the `answer` update's validator throws it as a coded failure (failures.ts) and
 * clients read the code and field back — never the message. Pure types.
 */
import type { ErrorCode } from '../error-codes';

/**
 * An answer's rejection: `NOT_OPEN` when the interaction is unknown, answered or expired (field
 * `interactionId`), else `INVALID_ANSWER` with the first broken rule's path (`answer`,
 * `answer.values.pages`, `answer.digest`, …). `error` is the message shown to people.
 */
export interface AnswerRejection {
  ok: false;
  code: Extract<ErrorCode, 'NOT_OPEN' | 'INVALID_ANSWER' | 'SAME_APPROVER' | 'ROLE_REQUIRED'>;
  field: string;
  error: string;
}
