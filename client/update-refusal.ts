/**
 * A workflow's coded refusal of an update as a ClientError: its validator (or handler) throws a
 * failure whose `type` is an error code (workflows/contract/failures.ts), read here from that
 * structure, never from the message.
 */
import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { ClientError, type ClientErrorCode } from './client-error';

/** The ClientError for `err` when it is an update refused with a code `accepts` takes; else undefined. */
export function updateRefusal(
  err: unknown,
  accepts: (code: string | null | undefined) => code is ClientErrorCode,
): ClientError | undefined {
  if (!(err instanceof WorkflowUpdateFailedError) || !(err.cause instanceof ApplicationFailure)) return undefined;
  const { type, message } = err.cause;
  return accepts(type) ? new ClientError(type, message) : undefined;
}
