/**
 * A clear message and code for a failure seen in workflow code: an activity's failure is
 * unwrapped to its cause, so an LLM 401 reads `LLM_AUTH: …`, not "Activity task failed".
 * A failure whose type is not one of Cairn's codes counts as `STEP_FAILED` (its type stays in
 * the message).
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { isErrorCode, type ErrorCode } from '../base/error-codes';

/** The code and message to fail with for `err`. */
export function describeFailure(err: unknown): { code: ErrorCode; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const type = cause.type ?? 'STEP_FAILED';
    const code = isErrorCode(type) ? type : 'STEP_FAILED';
    return { code, message: err instanceof ActivityFailure ? `${type}: ${cause.message}` : cause.message };
  }
  return { code: 'STEP_FAILED', message: cause instanceof Error ? cause.message : String(cause) };
}
