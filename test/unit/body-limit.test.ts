/**
 * The HTTP API's body limit (client/http/create-app.ts) is the one docs/contracts.md#http-api
 * states — "JSON routes require `Content-Type: application/json` (415) and at most 256 KiB
 * (413)" — written here as a number rather than read from the code, so that changing the default
 * fails this file: a body of exactly 256 KiB reaches the route (which refuses the task as too
 * long), one byte more is 413 PAYLOAD_TOO_LARGE before the route is reached.
 */
import { DEFAULT_MAX_BODY_BYTES } from '../../client/http/create-app';
import { unusedAgents } from '../harness/config-errors';
import { appOver } from '../harness/http-app';

const DOCUMENTED_LIMIT_BYTES = 256 * 1024;

const app = appOver(unusedAgents('a body at the limit is refused by validation, before any agent call'));

/** A start request whose JSON is exactly `bytes` long (ASCII: one byte a character). */
function startBody(bytes: number): string {
  const frame = JSON.stringify({ task: '' });
  return JSON.stringify({ task: 'x'.repeat(bytes - frame.length) });
}

async function post(body: string): Promise<{ status: number; code?: string }> {
  const res = await app.request('/api/agents', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
    body,
  });
  return { status: res.status, code: ((await res.json()) as { error?: { code?: string } }).error?.code };
}

test('the default body limit is the documented 256 KiB', () => {
  expect(DEFAULT_MAX_BODY_BYTES).toBe(DOCUMENTED_LIMIT_BYTES);
});

test('a body of exactly 256 KiB reaches the route; one byte more is 413', async () => {
  expect(startBody(DOCUMENTED_LIMIT_BYTES)).toHaveLength(DOCUMENTED_LIMIT_BYTES);
  expect(await post(startBody(DOCUMENTED_LIMIT_BYTES))).toEqual({ status: 400, code: 'INVALID_INPUT' });
  expect(await post(startBody(DOCUMENTED_LIMIT_BYTES + 1))).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
});
