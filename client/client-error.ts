/**
 * Errors the client library raises, with stable codes from the single list (error-codes.ts) that
 * the HTTP API maps to statuses (INVALID_* → 400, NOT_FOUND → 404, NOT_OPEN / CONFLICT → 409, AGENT_UNAVAILABLE → 503) and
 * the CLI to exit codes.
 */
import { isErrorCode, type ErrorCode } from '../workflows/base/error-codes';

/** The codes a client-library call fails with. */
export type ClientErrorCode = Extract<
  ErrorCode,
  | 'INVALID_INPUT'
  | 'INVALID_ANSWER'
  | 'NOT_FOUND'
  | 'NOT_OPEN'
  | 'CONFLICT'
  | 'AGENT_FINISHED'
  | 'THREAD_CLOSED'
  | 'THREAD_DEFINITION'
  | 'QUEUE_FULL'
  | 'AGENT_UNAVAILABLE'
  | 'SAME_APPROVER'
  | 'ROLE_REQUIRED'
  | LlmErrorCode
>;

/** The model endpoint's failures: a thread's message whose model call failed for good is refused with one. */
export type LlmErrorCode = Extract<ErrorCode, `LLM_${string}`>;

/** Whether `code` is one of the model endpoint's failures. */
export function isLlmErrorCode(code: string | null | undefined): code is LlmErrorCode {
  return typeof code === 'string' && code.startsWith('LLM_') && isErrorCode(code);
}

export class ClientError extends Error {
  constructor(
    readonly code: ClientErrorCode,
    message: string,
    /** The offending field, when there is one (for a rejected answer: `interactionId`, `answer.values.pages`, …). */
    readonly field?: string,
    /** What it was made from (e.g. the HTTP API's refusal, with its status). */
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ClientError';
  }
}
