/**
 * A refused `answer` update as a ClientError: the workflow's validator throws a coded failure
 * (workflows/contract/failures.ts) whose type is `NOT_OPEN` or `INVALID_ANSWER` and whose first detail
 * names the offending field; both are read from that structure, never from the message.
 */
import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { rejectionDetail } from '../../workflows/contract/failures';
import { isAnswerRejectionCode } from '../../workflows/model/interactions/answer-rejection';
import { ClientError } from '../client-error';

/**
 * The ClientError for a rejected answer update, or `undefined` when `err` is something else
 * (which the caller rethrows as it is).
 */
export function answerRejected(err: unknown): ClientError | undefined {
  if (!(err instanceof WorkflowUpdateFailedError) || !(err.cause instanceof ApplicationFailure)) return undefined;
  const failure = err.cause;
  const detail = rejectionDetail(failure);
  if (detail) return new ClientError(detail.code, failure.message, detail.field);
  // A coded failure from the update handler itself (the answer raced another): no field to name.
  if (isAnswerRejectionCode(failure.type)) return new ClientError(failure.type, failure.message);
  return undefined;
}
