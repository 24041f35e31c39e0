/**
 * A clear message and code for a failure seen in workflow code: an activity's failure is
 * unwrapped to its cause, so an LLM 401 reads `LLM_AUTH: …`, not "Activity task failed".
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

export function describeFailure(err: unknown): { code: string; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const code = cause.type ?? 'STEP_FAILED';
    return { code, message: err instanceof ActivityFailure ? `${code}: ${cause.message}` : cause.message };
  }
  return { code: 'STEP_FAILED', message: cause instanceof Error ? cause.message : String(cause) };
}
