/**
 * Turns whatever the `openai` client threw into an `ApplicationFailure` with a stable code
 * (workflows/base/error-codes.ts) and the right retry behaviour (docs/architecture/llm-calls.md): 408 / 409 / 429 /
 * 5xx / timeouts / connection failures retry — 429 after the endpoint's Retry-After — while
 * 400 / 401 / 403 / 404 / 422 never do. Two answers are recognised by their text whatever their
 * status: a context overflow (`LLM_CONTEXT_EXCEEDED`), and a 5xx saying the server could not
 * parse our own request (llama.cpp's "Failed to parse tool call arguments") — both come back the
 * same on every retry, so neither is retried. The openai client's own retries are off, so
 * Temporal's retry policy is the only one and each attempt shows in the UI.
 */
import { ApplicationFailure } from '@temporalio/common';
import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { Redactor } from '../../config/redact-secrets';
import type { ErrorCode } from '../../workflows/base/error-codes';

function failure(code: ErrorCode, message: string, retryable: boolean, details: unknown[] = []): ApplicationFailure {
  return ApplicationFailure.create({ type: code, message, nonRetryable: !retryable, details });
}

/** How endpoints say the conversation is longer than the model's context window. */
const CONTEXT_EXCEEDED =
  /context_length_exceeded|exceeds? the (available )?context size|maximum context length|context window|prompt is too long|too many tokens/i;

/** How a server says it could not parse the request we sent (deterministic: a retry fails alike). */
const REQUEST_UNPARSABLE =
  /failed to parse (the )?(tool call |function call )?arguments|failed to parse .*(tool|json)/i;

/** Whether an endpoint's error text says the conversation overflowed the model's context. */
export function isContextOverflow(message: string): boolean {
  return CONTEXT_EXCEEDED.test(message);
}

/**
 * Milliseconds to wait from a `Retry-After` (seconds or HTTP date) or `retry-after-ms` header.
 * @param now the current time in ms, for HTTP dates.
 */
export function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Maps an error from an LLM call to the failure the activity should throw. The endpoint's text
 * passes through `redact` first: some endpoints echo the Authorization header in a 401, and
 * this message goes to workflow history, the agent state and the worker log.
 */
export function classifyLlmError(err: unknown, redact: Redactor, now = Date.now()): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof APIUserAbortError) return failure('LLM_TIMEOUT', 'LLM call cancelled', true);
  if (err instanceof APIConnectionTimeoutError) return failure('LLM_TIMEOUT', 'LLM call timed out', true);
  if (err instanceof APIError) {
    const { status, headers } = err as APIError;
    const text = redact(`LLM endpoint answered ${status ?? 'no status'}: ${err.message}`);
    if (status === undefined) return failure('LLM_UNAVAILABLE', text, true);
    // Codes where the endpoint gives one (OpenAI, llama.cpp's type); its text where it does not (vLLM).
    const overflow =
      err.code === 'context_length_exceeded' ||
      err.type === 'exceed_context_size_error' ||
      isContextOverflow(err.message);
    if (status >= 400 && overflow) {
      const why = "the conversation does not fit the model's context window (see docs/local-models.md)";
      return failure('LLM_CONTEXT_EXCEEDED', `${why}; ${text}`, false, [status]);
    }
    if (status >= 500 && REQUEST_UNPARSABLE.test(err.message)) {
      const why = 'the endpoint could not parse the request Cairn sent; not retried, as the same request fails alike';
      return failure('LLM_REJECTED', `${why}; ${text}`, false, [status]);
    }
    if (status === 429) {
      const delay = retryAfterMs(headers, now);
      return ApplicationFailure.create({
        type: 'LLM_RATE_LIMITED',
        message: text,
        ...(delay !== undefined ? { nextRetryDelay: delay } : {}),
      });
    }
    if (status === 408 || status === 409 || status >= 500) return failure('LLM_UNAVAILABLE', text, true, [status]);
    if (status === 401 || status === 403) return failure('LLM_AUTH', text, false, [status]);
    return failure('LLM_REJECTED', text, false, [status]);
  }
  const message = err instanceof Error ? err.message : String(err);
  return failure('LLM_BAD_RESPONSE', redact(`LLM endpoint gave an unusable answer: ${message}`), true);
}
