/** LLM error classification: codes and retry behaviour per status (docs/architecture/llm-calls.md). */
import { ApplicationFailure } from '@temporalio/common';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { classifyLlmError, retryAfterMs } from '../../activities/llm/classify-llm-error';
import { createRedactor } from '../../config/redact-secrets';

const KEY = 'sk-test-0123456789abcdefghij';
const redact = createRedactor([KEY]);

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
  const failure = classifyLlmError(apiError(status), redact);
  expect(failure).toBeInstanceOf(ApplicationFailure);
  expect(failure.type).toBe(code);
  expect(failure.nonRetryable).toBe(nonRetryable);
});

test('a 429 carries the Retry-After as the next retry delay', () => {
  expect(classifyLlmError(apiError(429, { 'retry-after': '12' }), redact).nextRetryDelay).toBe(12_000);
  expect(classifyLlmError(apiError(429), redact).nextRetryDelay).toBeUndefined();
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
  expect(classifyLlmError(new APIConnectionTimeoutError(), redact).type).toBe('LLM_TIMEOUT');
  expect(classifyLlmError(new APIConnectionError({ message: 'refused' }), redact).type).toBe('LLM_UNAVAILABLE');
  const bad = classifyLlmError(new SyntaxError('Unexpected end of JSON input'), redact);
  expect(bad.type).toBe('LLM_BAD_RESPONSE');
  expect(bad.nonRetryable).toBe(false);
  expect(bad.message).toContain('Unexpected end of JSON input');
});

test('an endpoint that echoes the key in a 401 does not put it in the failure', () => {
  const text = `Incorrect API key provided: ${KEY}. Authorization: Bearer ${KEY}`;
  const echoed = APIError.generate(401, { error: { message: text } }, text, new Headers());
  const failure = classifyLlmError(echoed, redact);
  expect(failure.type).toBe('LLM_AUTH');
  expect(failure.message).toContain('Incorrect API key provided: [redacted]');
  expect(failure.message).not.toContain(KEY);
  expect(JSON.stringify(failure.details)).not.toContain(KEY);
});

test.each([
  [400, 'the request exceeds the available context size, try increasing it'],
  [400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."],
  [500, 'context_length_exceeded'],
])('HTTP %i "%s" → LLM_CONTEXT_EXCEEDED, not retried, saying so', (status, message) => {
  const failure = classifyLlmError(APIError.generate(status, { error: { message } }, message, new Headers()), redact);
  expect(failure.type).toBe('LLM_CONTEXT_EXCEEDED');
  expect(failure.nonRetryable).toBe(true);
  expect(failure.message).toMatch(/does not fit the model's context window/);
});

test('a 500 saying our own tool arguments do not parse is not retried; other 500s are', () => {
  const parse = APIError.generate(
    500,
    { error: { message: 'Failed to parse tool call arguments as JSON' } },
    'Failed to parse tool call arguments as JSON',
    new Headers(),
  );
  const failure = classifyLlmError(parse, redact);
  expect([failure.type, failure.nonRetryable]).toEqual(['LLM_REJECTED', true]);
  expect(failure.message).toMatch(/could not parse the request Cairn sent/);
  expect(classifyLlmError(apiError(500), redact).nonRetryable).toBe(false);
});
