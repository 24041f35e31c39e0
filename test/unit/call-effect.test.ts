/**
 * The per-call effect: whether a tool call waits for approval and may be retried, from the
 * catalogue entry and the validated arguments — for http_fetch, from its method.
 */
import { createHttpFetchTool } from '../../activities/tools/builtin/http-fetch';
import { createToolRegistry } from '../../activities/tools/tool-registry';
import { callEffect } from '../../workflows/model/tools/call-effect';
import type { ToolInfo } from '../../workflows/model/tools/tool-types';

const base = { description: 'd', parameters: {} };
const read: ToolInfo = { ...base, name: 'read_file', effect: 'read', idempotent: true, needsApproval: false };
const write: ToolInfo = { ...base, name: 'append', effect: 'write', idempotent: false, needsApproval: true };
const readWhen = { argument: 'method', default: 'GET', values: ['GET', 'HEAD'] };

/** The catalogue entry of the real http_fetch, as a worker with `autoApprove` lists it. */
function httpFetchInfo(autoApprove: string[] = []): ToolInfo {
  const [info] = createToolRegistry([createHttpFetchTool({ allow: [] })]).list(undefined, autoApprove);
  if (!info) throw new Error('http_fetch is not listed');
  return info;
}

test('without readWhen every call has the tool effect (as catalogues recorded before it)', () => {
  expect(callEffect(read, { path: 'a' })).toEqual({ effect: 'read', needsApproval: false, idempotent: true });
  expect(callEffect(write, { method: 'GET' })).toEqual({ effect: 'write', needsApproval: true, idempotent: false });
  const recordedHttpFetch: ToolInfo = { ...read, name: 'http_fetch' };
  expect(callEffect(recordedHttpFetch, { url: 'http://x/', method: 'POST' })).toMatchObject({ needsApproval: false });
});

test('http_fetch: GET, HEAD and no method read; every other method is an approved, single-attempt write', () => {
  const info = httpFetchInfo();
  const readCall = { effect: 'read', needsApproval: false, idempotent: true };
  const writeCall = { effect: 'write', needsApproval: true, idempotent: false };
  expect(callEffect(info, { url: 'https://example.com/' })).toEqual(readCall);
  expect(callEffect(info, { url: 'https://example.com/', method: 'GET' })).toEqual(readCall);
  expect(callEffect(info, { url: 'https://example.com/', method: 'HEAD' })).toEqual(readCall);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    expect([method, callEffect(info, { url: 'https://example.com/', method, body: 'x' })]).toEqual([method, writeCall]);
  }
});

test('http_fetch auto-approved: a POST runs without approval but still with one attempt', () => {
  const info = httpFetchInfo(['http_fetch']);
  expect(callEffect(info, { url: 'https://example.com/', method: 'POST' })).toEqual({
    effect: 'write',
    needsApproval: false,
    idempotent: false,
  });
  expect(callEffect(info, { url: 'https://example.com/' })).toMatchObject({ effect: 'read', idempotent: true });
});

test('arguments that do not clearly select a read count as a write', () => {
  const tool: ToolInfo = { ...write, readWhen };
  for (const args of [null, 'GET', ['GET'], { method: 'get' }, { method: ['GET'] }, { method: 1 }, { method: null }]) {
    expect([args, callEffect(tool, args).needsApproval]).toEqual([args, true]);
  }
  // readWhen only ever lowers a write: on a read tool it changes nothing.
  expect(callEffect({ ...read, readWhen }, { method: 'POST' })).toMatchObject({ effect: 'read', needsApproval: false });
});
