/**
 * The codec server's edge (client/http/routes/codec.ts) without Temporal: CORS for the configured
 * Temporal UI origin only (preflight and credentials), the session-free token check, a decode that
 * meets an unknown key answering 422 PAYLOAD_UNDECODABLE naming the key and audited as refused,
 * and a malformed body refused as INVALID_INPUT.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { SessionStore } from '../../client/http/auth/sessions';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import type { CodecAuditRecord } from '../../client/http/routes/codec';
import { COMPRESSED_ENCODING, MAX_INFLATED_DECODE_BYTES } from '../../temporal/payloads/compression-codec';
import { sealPayload } from '../../temporal/payloads/payload-envelope';
import type { EncryptionKey } from '../../config/payload-config';
import { unusedAgents } from '../harness/config-errors';
import { appOver } from '../harness/http-app';

const UI = 'http://localhost:8233';
const TOKEN = 'operator-token-of-the-codec-unit-test';
const b64 = (text: string) => Buffer.from(text).toString('base64');

function app(keys: EncryptionKey[], audits: CodecAuditRecord[]) {
  return appOver(unusedAgents('the codec routes call no agent'), {
    auth: {
      mode: 'tokens',
      tokens: new TokenTable([{ principal: 'olga', roles: ['operator'], tokenSha256: sha256Hex(TOKEN) }]),
      sessions: new SessionStore(),
    },
    payloads: { compression: true, keys, codecCorsOrigin: UI },
    codecAudit: (record) => audits.push(record),
  });
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: {
    authorization: `Bearer ${TOKEN}`,
    'content-type': 'application/json',
    'x-namespace': 'default',
    ...headers,
  },
  body: JSON.stringify(body),
});

test('the configured UI origin gets a preflight answer with credentials; another origin does not', async () => {
  const server = app([{ id: 'k1', key: randomBytes(32) }], []);
  const preflight = (origin: string) =>
    server.request('/codec/decode', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-namespace' },
    });
  const allowed = await preflight(UI);
  expect(allowed.status).toBe(204);
  expect(allowed.headers.get('access-control-allow-origin')).toBe(UI);
  expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
  expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-namespace');
  const other = await preflight('http://evil.example');
  expect(other.headers.get('access-control-allow-origin')).toBeNull();
  const response = await server.request('/codec/encode', post('/codec/encode', { payloads: [] }, { origin: UI }));
  expect(response.status).toBe(200);
  expect(response.headers.get('access-control-allow-origin')).toBe(UI);
});

test('a payload under a key the server does not hold: 422 naming the key, audited as refused', async () => {
  const audits: CodecAuditRecord[] = [];
  const writer = app([{ id: 'old-key', key: randomBytes(32) }], []);
  const reader = app([{ id: 'new-key', key: randomBytes(32) }], audits);
  const plain = { metadata: { encoding: b64('json/plain') }, data: b64('"hello"') };
  const encoded = (await (
    await writer.request('/codec/encode', post('/codec/encode', { payloads: [plain] }))
  ).json()) as {
    payloads: unknown[];
  };
  const res = await reader.request(
    '/codec/decode',
    post('/codec/decode', encoded, { 'x-workflow-id': 'agent-task-1' }),
  );
  expect(res.status).toBe(422);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('PAYLOAD_UNDECODABLE');
  expect(body.error.message).toMatch(/key "old-key"/);
  expect(audits).toEqual([
    expect.objectContaining({
      audit: 'codec.decode',
      principal: 'olga',
      namespace: 'default',
      workflowId: 'agent-task-1',
      keyIds: ['old-key'],
      outcome: 'refused',
    }),
  ]);
});

test('a body that is not a payload list is INVALID_INPUT; no credentials is 401', async () => {
  const server = app([{ id: 'k1', key: randomBytes(32) }], []);
  const bad = await server.request('/codec/decode', post('/codec/decode', { payloads: [{ data: 'not base64!' }] }));
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
  const anonymous = await server.request('/codec/decode', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ payloads: [] }),
  });
  expect(anonymous.status).toBe(401);
});

test('a key id outside the key-id grammar is refused without being repeated, in the answer or the audit', async () => {
  const audits: CodecAuditRecord[] = [];
  const server = app([{ id: 'k1', key: randomBytes(32) }], audits);
  const crafted = 'a-'.repeat(30_000);
  const payload = {
    metadata: { encoding: b64('binary/encrypted'), 'encryption-key-id': b64(crafted) },
    data: b64('x'.repeat(40)),
  };
  const res = await server.request('/codec/decode', post('/codec/decode', { payloads: [payload] }));
  expect(res.status).toBe(400);
  const text = await res.text();
  expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
  expect(text).not.toContain('a-a-a-');
  expect(audits).toEqual([expect.objectContaining({ outcome: 'refused', keyIds: [] })]);
  expect(JSON.stringify(audits).length).toBeLessThan(1_000);
});

test('the audited namespace and workflow id are cut to 1000 characters', async () => {
  const audits: CodecAuditRecord[] = [];
  const server = app([{ id: 'k1', key: randomBytes(32) }], audits);
  const long = 'w'.repeat(8_000);
  const res = await server.request(
    '/codec/decode',
    post('/codec/decode', { payloads: [] }, { 'x-namespace': long, 'x-workflow-id': long }),
  );
  expect(res.status).toBe(200);
  expect(audits[0]?.namespace).toHaveLength(1000);
  expect(audits[0]?.workflowId).toHaveLength(1000);
});

/** A compressed payload as the wire carries it, inflating to `bytes` zero bytes (a deflate bomb). */
function bomb(bytes: number) {
  const sealed = sealPayload({ metadata: { encoding: Buffer.from('binary/plain') }, data: new Uint8Array(bytes) });
  return { metadata: { encoding: b64(COMPRESSED_ENCODING) }, data: deflateRawSync(sealed).toString('base64') };
}

test('payloads that inflate past the per-request budget together are refused: 413 DECODE_TOO_LARGE, audited', async () => {
  const audits: CodecAuditRecord[] = [];
  const server = app([{ id: 'k1', key: randomBytes(32) }], audits);
  // Each under the per-payload cap, together past the request's budget; a few KiB on the wire.
  const each = 12 * 1024 * 1024;
  const count = Math.ceil(MAX_INFLATED_DECODE_BYTES / each) + 1;
  const request = { payloads: Array.from({ length: count }, () => bomb(each)) };
  expect(JSON.stringify(request).length).toBeLessThan(200 * 1024);
  const res = await server.request('/codec/decode', post('/codec/decode', request));
  expect(res.status).toBe(413);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('DECODE_TOO_LARGE');
  expect(audits).toEqual([expect.objectContaining({ outcome: 'refused', payloads: count })]);
  // One of those payloads alone decodes: the budget is per request, not a refusal of compression.
  const one = await server.request('/codec/decode', post('/codec/decode', { payloads: [bomb(each)] }));
  expect(one.status).toBe(200);
});

test('one payload that inflates past the per-payload cap is refused: 413 DECODE_TOO_LARGE', async () => {
  const server = app([{ id: 'k1', key: randomBytes(32) }], []);
  const res = await server.request('/codec/decode', post('/codec/decode', { payloads: [bomb(40 * 1024 * 1024)] }));
  expect(res.status).toBe(413);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('DECODE_TOO_LARGE');
});

test('every encode is audited like a decode: who, namespace, workflow and the key it sealed under', async () => {
  const audits: CodecAuditRecord[] = [];
  const server = app(
    [
      { id: 'k2', key: randomBytes(32) },
      { id: 'k1', key: randomBytes(32) },
    ],
    audits,
  );
  const plain = { metadata: { encoding: b64('json/plain') }, data: b64('{"decision":"approve"}') };
  const res = await server.request(
    '/codec/encode',
    post('/codec/encode', { payloads: [plain, plain] }, { 'x-workflow-id': 'agent-task-2' }),
  );
  expect(res.status).toBe(200);
  expect(audits).toHaveLength(1);
  expect(Date.parse(audits[0]?.at ?? '')).not.toBeNaN();
  expect(audits).toEqual([
    {
      audit: 'codec.encode',
      at: audits[0]?.at,
      principal: 'olga',
      method: 'api',
      authenticatedBy: 'token',
      namespace: 'default',
      workflowId: 'agent-task-2',
      payloads: 2,
      keyIds: ['k2'],
      outcome: 'encoded',
    },
  ]);
});
