/** LLM error classification: codes and retry behaviour per status (DESIGN §4.6). */
import { ApplicationFailure } from '@temporalio/common';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { classifyLlmError, retryAfterMs } from '../../activities/llm/classify-llm-error';

const apiError = (status: number, headers: Record<string, string> = {}) =>
  APIError.generate(status, { message: `status ${status}` }, undefined, new Headers(headers));

test.each([
  [408, 'LLM_UNAVAILABLE', false],
  [409, 'LLM_UNAVAILABLE', false],
  [500, 'LLM_UNAVAILABLE', false],
  [503, 'LLM_UNAVAILABLE', false],
  [429, 'LLM_RATE_LIMITED', false],
  [400, 'LLM_REJECTED', true],
  [404, 'LLM_REJECTED', true],
  [422, 'LLM_REJECTED', true],
  [401, 'LLM_AUTH', true],
  [403, 'LLM_AUTH', true],
])('HTTP %i → %s (non-retryable: %s)', (status, code, nonRetryable) => {
  const failure = classifyLlmError(apiError(status));
  expect(failure).toBeInstanceOf(ApplicationFailure);
  expect(failure.type).toBe(code);
  expect(failure.nonRetryable).toBe(nonRetryable);
});

test('a 429 carries the Retry-After as the next retry delay', () => {
  expect(classifyLlmError(apiError(429, { 'retry-after': '12' })).nextRetryDelay).toBe(12_000);
  expect(classifyLlmError(apiError(429)).nextRetryDelay).toBeUndefined();
});

test('Retry-After is read as seconds, an HTTP date, or retry-after-ms', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
  expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
  expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
  expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  expect(retryAfterMs(undefined, now)).toBeUndefined();
});

test('timeouts and connection failures retry; anything else is a bad response that retries', () => {
  expect(classifyLlmError(new APIConnectionTimeoutError()).type).toBe('LLM_TIMEOUT');
  expect(classifyLlmError(new APIConnectionError({ message: 'refused' })).type).toBe('LLM_UNAVAILABLE');
  const bad = classifyLlmError(new SyntaxError('Unexpected end of JSON input'));
  expect(bad.type).toBe('LLM_BAD_RESPONSE');
  expect(bad.nonRetryable).toBe(false);
  expect(bad.message).toContain('Unexpected end of JSON input');
});
