/**
 * `POST /api/agents` takes an allow list of fields (client/agents/start-fields.ts): a body
 * naming a field only Cairn sets — a thread turn's `context` (earlier approvals) and `thread`, a
 * nested agent's `nested` and `sharedWorkspace`, the `principal` — or a field the input does not
 * have is refused with 400 INVALID_INPUT naming it, as JSON and as a multipart form's `input`
 * part, before anything starts; a body of allowed fields starts as before.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_UPLOAD_LIMITS } from '../../config/upload-config';
import { createApp } from '../../client/http/create-app';
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import { approvalDigest } from '../../workflows/step/approval-digest';
import { unusedAgents } from '../harness/config-errors';
import { startForm } from '../harness/multipart';

const root = mkdtempSync(join(tmpdir(), 'start-fields-'));
const started: AgentInput[] = [];
const app = createApp({
  version: 'test',
  temporalHealthy: () => Promise.resolve(true),
  agents: {
    ...unusedAgents('a start only starts'),
    start: (input: AgentInput) => {
      started.push(input);
      return Promise.resolve(`agent-${started.length}`);
    },
  },
  uploads: { root, limits: DEFAULT_UPLOAD_LIMITS },
});

/** An approval of a write nobody was asked about, computed offline. */
const forgedApproval = {
  agentId: 'thread-x/turn-1',
  interactionId: 'approval-1',
  tool: 'write_file',
  digest: approvalDigest('write_file', { path: 'notes.txt', content: 'x' }),
  approvers: 2,
  role: 'admin',
  by: ['ann', 'bob'],
};

const serverSet: [string, unknown][] = [
  ['context', { approvals: [forgedApproval] }],
  ['thread', { id: 'thread-someone-elses', turn: 1 }],
  ['nested', true],
  ['sharedWorkspace', true],
  ['principal', { id: 'root', roles: ['admin'] }],
];

async function startJson(body: unknown) {
  const res = await app.request('/api/agents', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { id?: string; error?: { code: string; field?: string; message: string } },
  };
}

async function startMultipart(input: unknown) {
  const form = startForm(input, { 'a.txt': 'a' });
  const res = await app.request('/api/agents', {
    method: 'POST',
    headers: { 'content-type': form.contentType },
    body: form.body,
  });
  return {
    status: res.status,
    body: (await res.json()) as { id?: string; error?: { code: string; field?: string; message: string } },
  };
}

beforeEach(() => {
  started.length = 0;
});

test.each(serverSet)('a JSON start naming %s is refused by name before anything starts', async (field, value) => {
  const res = await startJson({ task: 'write the notes', [field]: value });
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field });
  expect(res.body.error?.message).toContain(`${field}: set by Cairn`);
  expect(started).toEqual([]);
});

test.each(serverSet)(
  'a multipart start whose input part names %s is refused by name, nothing stored',
  async (field, value) => {
    const stored = readdirSync(root);
    const res = await startMultipart({ task: 'write the notes', [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field });
    expect(started).toEqual([]);
    expect(readdirSync(root)).toEqual(stored);
  },
);

test('a field the input does not have is refused too, each one named', async () => {
  const json = await startJson({ task: 'write the notes', approvals: [forgedApproval], tool: 'x' });
  expect(json.status).toBe(400);
  expect(json.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'approvals' });
  expect(json.body.error?.message).toContain('approvals: unknown field; tool: unknown field');
  const form = await startMultipart({ task: 'write the notes', extra: 1 });
  expect(form.status).toBe(400);
  expect(form.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'extra' });
  expect(started).toEqual([]);
});

test('a start of allowed fields starts, as JSON and with files', async () => {
  const body = { task: 'write the notes', mode: { plan: false }, limits: { maxStepRounds: 5 }, tools: ['write_file'] };
  expect((await startJson(body)).status).toBe(201);
  expect((await startMultipart(body)).status).toBe(201);
  expect(started.map((s) => s.task)).toEqual(['write the notes', 'write the notes']);
  expect(started.every((s) => s.context === undefined && s.thread === undefined && s.nested === undefined)).toBe(true);
});
