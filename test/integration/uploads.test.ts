/**
 * Files uploaded with `POST /api/agents` as multipart/form-data (docs/contracts.md#uploads),
 * against the real dev server and worker: stored as `inputs/<name>` in the agent's folder, named
 * to the planner and to every step, read by a step; hostile names stored sanitised inside
 * `inputs/`; over a limit 413 UPLOAD_TOO_LARGE, a refused type 415 UPLOAD_TYPE_REFUSED and a name
 * over 255 bytes 400 UPLOAD_NAME_TOO_LONG, with nothing stored and no agent started.
 */
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { agentWorkspaceDir, workspaceFolderName } from '../../config/agent-workspace';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../../config/upload-config';
import { STAGING_FOLDER } from '../../client/uploads/store-uploads';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { makeDocx, makePdf } from '../harness/documents';
import { testApp } from '../harness/http-app';
import { startedInput } from '../harness/started-input';
import { tokenApp } from '../harness/token-app';
import { multipart, startForm, type MultipartBody } from '../harness/multipart';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

interface Started {
  id: string;
  files: string[];
}

/** An app storing uploads under a fresh workspace root, with `limits` over the defaults. */
function uploadApp(limits: Partial<UploadLimits> = {}): { app: OpenAPIHono; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'uploads-'));
  const app = testApp(bed.client, bed.config.taskQueue, {
    uploads: { root, limits: { ...DEFAULT_UPLOAD_LIMITS, ...limits } },
  });
  return { app, root };
}

function send(app: OpenAPIHono, form: MultipartBody, headers: Record<string, string> = {}) {
  return Promise.resolve(
    app.request('/api/agents', {
      method: 'POST',
      body: form.body,
      headers: { 'content-type': form.contentType, 'content-length': String(form.body.length), ...headers },
    }),
  );
}

async function codeOf(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

/** What the workspace root holds besides the (empty) staging folder: the agents' folders. */
function agentFolders(root: string): string[] {
  const staging = join(root, STAGING_FOLDER);
  if (existsSync(staging)) expect(readdirSync(staging)).toEqual([]);
  return readdirSync(root).filter((name) => name !== STAGING_FOLDER);
}

/** Ends an agent nothing will run (no worker polls its queue in these tests). */
async function terminate(id: string): Promise<void> {
  await bed.client.workflow.getHandle(id).terminate('test over');
}

/** The user message of the first request of `purpose` (and, for a step, of step `stepId`). */
function firstUserMessage(purpose: string, stepId?: string): string {
  const request = bed.llm.requests.find(
    (r) => r.headers['x-cairn-purpose'] === purpose && (stepId === undefined || r.headers['x-cairn-step'] === stepId),
  );
  const message = request?.body.messages.find((m) => m.role === 'user');
  return typeof message?.content === 'string' ? message.content : '';
}

const PDF_TEXT = 'Invoice 4711 total 99 EUR';

test('a PDF, a DOCX and a CSV uploaded with the start are stored under inputs/, named to the planner and to each step', async () => {
  const { app, root } = uploadApp();
  const pdf = makePdf([PDF_TEXT]);
  const docx = makeDocx(['Dear Ada', 'Your order has shipped']);
  const csv = 'id,item\n1,lamp\n';
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2')]))],
      'step:s1': [finish('one')],
      'step:s2': [finish('two')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const form = startForm({ task: 'read the documents', files: ['notes.txt'] }, [
      ['invoice.pdf', pdf],
      ['letter.docx', docx],
      ['orders.csv', csv],
    ]);
    const res = await send(app, form);
    expect(res.status).toBe(201);
    const started = (await res.json()) as Started;
    expect(started.files).toEqual(['inputs/invoice.pdf', 'inputs/letter.docx', 'inputs/orders.csv']);
    const inputs = join(agentWorkspaceDir(root, started.id), 'inputs');
    // The bytes as sent, under their own names, in this agent's folder and nowhere else.
    expect(readFileSync(join(inputs, 'invoice.pdf')).equals(pdf)).toBe(true);
    expect(readFileSync(join(inputs, 'letter.docx')).equals(docx)).toBe(true);
    expect(readFileSync(join(inputs, 'orders.csv'), 'utf8')).toBe(csv);
    expect(agentFolders(root)).toEqual([workspaceFolderName(started.id)]);
    expect(await bed.client.workflow.getHandle(started.id).result()).toMatchObject({ status: 'completed' });
  });
  // The files the input named come first, then the uploads, to the planner and to both steps.
  const listed = ['- notes.txt', '- inputs/invoice.pdf', '- inputs/letter.docx', '- inputs/orders.csv'].join('\n');
  expect(firstUserMessage('plan')).toContain(listed);
  expect(firstUserMessage('step', 's1')).toContain(listed);
  expect(firstUserMessage('step', 's2')).toContain(listed);
});

/** The tool result for `callId` in the requests of step s1. */
function toolResult(callId: string): string {
  for (const request of bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1')) {
    const message = request.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
    if (typeof message?.content === 'string') return message.content;
  }
  return '';
}

// Needs the per-agent workspace (file tools reading the agent's own folder): until the worker
// reads there, `inputs/invoice.pdf` is looked for under the workspace root and not found.
test('a step reads the uploaded PDF, DOCX and CSV by the paths the start answered', async () => {
  const { app, root } = uploadApp();
  const config = { ...bed.config, workspace: root, ledgerDir: `${root}.ledger` };
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('read_file', { path: 'inputs/invoice.pdf' }, 'pdf'),
        reply.toolCall('read_file', { path: 'inputs/letter.docx' }, 'docx'),
        reply.toolCall('read_file', { path: 'inputs/orders.csv' }, 'csv'),
        finish('read them'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const form = startForm({ task: 'read the documents' }, [
      ['invoice.pdf', makePdf([PDF_TEXT])],
      ['letter.docx', makeDocx(['Dear Ada', 'Your order has shipped'])],
      ['orders.csv', 'id,item\n1,lamp\n'],
    ]);
    const res = await send(app, form);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as Started;
    expect(await bed.client.workflow.getHandle(id).result()).toMatchObject({ status: 'completed' });
  });
  expect(toolResult('pdf')).toContain(PDF_TEXT);
  expect(toolResult('docx')).toMatch(/Dear Ada\s+Your order has shipped/);
  expect(toolResult('csv')).toBe('id,item\n1,lamp\n');
});

test('hostile file names are stored sanitised inside inputs/, each its own file', async () => {
  const { app, root } = uploadApp({ types: ['*'] });
  // The longest name taken (255 bytes: a longer one is refused); stored cut to 200.
  const long = `${'a'.repeat(251)}.txt`;
  const sent = ['../../x.txt', 'a/b.txt', '.env', 'nul\u0000byte.txt', long, 'CON.txt', 'X.TXT'];
  const res = await send(
    app,
    startForm(
      { task: 'keep these' },
      sent.map((name, i): [string, string] => [name, `content ${i}`]),
    ),
  );
  expect(res.status).toBe(201);
  const { id, files } = (await res.json()) as Started;
  try {
    const inputs = join(agentWorkspaceDir(root, id), 'inputs');
    const stored = readdirSync(inputs);
    // Every file arrived, under a name of one plain part, and the answer names each as stored.
    expect(stored).toHaveLength(sent.length);
    expect(files.map((f) => f.replace(/^inputs\//, '')).sort()).toEqual([...stored].sort());
    for (const name of stored) {
      // eslint-disable-next-line no-control-regex -- control characters are what must not be there
      expect(name).not.toMatch(/[/\\\u0000-\u001f]|^\.|\.\./);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    }
    // Each kept its content, in order; `x.txt` and `X.TXT` are two files, not one overwritten.
    files.forEach((path, i) =>
      expect(readFileSync(join(agentWorkspaceDir(root, id), path), 'utf8')).toBe(`content ${i}`),
    );
    expect(files[0]).toBe('inputs/x.txt');
    expect(files[6]).not.toBe('inputs/X.TXT');
    expect(files[4]).toMatch(/\.txt$/);
    expect(Buffer.byteLength(files[4]?.replace(/^inputs\//, '') ?? '')).toBe(200);
    expect(files[5]).not.toBe('inputs/CON.txt');
    // Nothing landed outside the agent's folder.
    expect(agentFolders(root)).toHaveLength(1);
  } finally {
    await terminate(id);
  }
});

describe('over a limit, of a refused type or too long a name: refused with its code, nothing stored, no agent', () => {
  const small: Partial<UploadLimits> = { maxFileBytes: 1000, maxRequestBytes: 4000, maxFiles: 2 };

  test.each([
    ['a file over the per-file limit', { 'big.txt': 'x'.repeat(1001) }, 413, 'UPLOAD_TOO_LARGE'],
    ['more files than allowed', { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' }, 413, 'UPLOAD_TOO_LARGE'],
    ['a type not accepted', { 'ok.txt': 'fine', 'tool.exe': 'MZ' }, 415, 'UPLOAD_TYPE_REFUSED'],
    ['a file without an extension', { Makefile: 'all:' }, 415, 'UPLOAD_TYPE_REFUSED'],
    ['a file name over 255 bytes', { 'ok.txt': 'fine', [`${'n'.repeat(252)}.txt`]: 'x' }, 400, 'UPLOAD_NAME_TOO_LONG'],
  ])('%s', async (_what, files, status, code) => {
    const { app, root } = uploadApp(small);
    const res = await send(app, startForm({ task: 'refused' }, files));
    expect(res.status).toBe(status);
    expect(await codeOf(res)).toBe(code);
    expect(agentFolders(root)).toEqual([]);
  });

  test('a Content-Length over the request limit is refused before the body is read', async () => {
    const { app, root } = uploadApp(small);
    let pulled = 0;
    // A body that would never end: had the server read it, the request would not come back.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const res = await app.request('/api/agents', {
      method: 'POST',
      body: endless,
      duplex: 'half',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': '4001' },
    });
    expect(res.status).toBe(413);
    expect(await codeOf(res)).toBe('UPLOAD_TOO_LARGE');
    // The stream may have been primed with a chunk or two, never read through.
    expect(pulled).toBeLessThan(4);
    expect(agentFolders(root)).toEqual([]);
  });

  test('without a Content-Length the limit is held while reading', async () => {
    const { app, root } = uploadApp(small);
    const form = startForm({ task: 'refused' }, { 'a.txt': 'y'.repeat(900), 'b.txt': 'z'.repeat(900) });
    const padded = multipart([
      { name: 'input', content: JSON.stringify({ task: 'refused' }) },
      { name: 'file', filename: 'a.txt', content: 'y'.repeat(900) },
      { name: 'file', filename: 'b.txt', content: 'z'.repeat(3500) },
    ]);
    expect(form.body.length).toBeLessThan(4000);
    const chunked = (body: Buffer) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < body.length; at += 512) controller.enqueue(body.subarray(at, at + 512));
          controller.close();
        },
      });
    const res = await app.request('/api/agents', {
      method: 'POST',
      body: chunked(padded.body),
      duplex: 'half',
      headers: { 'content-type': padded.contentType },
    });
    expect(res.status).toBe(413);
    expect(await codeOf(res)).toBe('UPLOAD_TOO_LARGE');
    expect(agentFolders(root)).toEqual([]);
  });

  test('an input the schema refuses is 400 INVALID_INPUT, its files not kept', async () => {
    const { app, root } = uploadApp();
    const res = await send(app, startForm({ task: '' }, { 'a.txt': 'a' }));
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('INVALID_INPUT');
    const noInput = await send(app, multipart([{ name: 'file', filename: 'a.txt', content: 'a' }]));
    expect(noInput.status).toBe(400);
    expect(await codeOf(noInput)).toBe('INVALID_INPUT');
    expect(agentFolders(root)).toEqual([]);
  });

  test('a start the client library refuses after the files were placed takes them out again', async () => {
    const { app, root } = uploadApp();
    // 50 files named already plus one upload: over the input's limit of 50, found at the start.
    const named = Array.from({ length: 50 }, (_, i) => `n${i}.txt`);
    const res = await send(app, startForm({ task: 'too many', files: named }, { 'a.txt': 'a' }));
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('INVALID_INPUT');
    expect(agentFolders(root)).toEqual([]);
  });
});

test('signed in: a viewer may not start with files (nothing stored); an operator starts as herself', async () => {
  const root = mkdtempSync(join(tmpdir(), 'uploads-'));
  const app = tokenApp(
    bed.client,
    bed.config.taskQueue,
    [
      { principal: 'olga', roles: ['operator'], token: 'upload-token-of-olga-operator' },
      { principal: 'vic', roles: ['viewer'], token: 'upload-token-of-vic-the-viewer' },
    ],
    { uploads: { root, limits: DEFAULT_UPLOAD_LIMITS } },
  );
  const form = startForm({ task: 'signed in' }, { 'a.txt': 'a' });
  const viewer = await send(app, form, { authorization: 'Bearer upload-token-of-vic-the-viewer' });
  expect(viewer.status).toBe(403);
  expect(await codeOf(viewer)).toBe('FORBIDDEN');
  expect(agentFolders(root)).toEqual([]);
  const operator = await send(app, form, { authorization: 'Bearer upload-token-of-olga-operator' });
  expect(operator.status).toBe(201);
  const { id } = (await operator.json()) as Started;
  try {
    // The principal is the signed-in one; the files are named in the input.
    expect(await startedInput(bed.client, id)).toMatchObject({
      task: 'signed in',
      files: ['inputs/a.txt'],
      principal: { id: 'olga', roles: ['operator'] },
    });
  } finally {
    await terminate(id);
  }
});

test('a server without an upload setting refuses a multipart start; a JSON start works as before', async () => {
  const app = testApp(bed.client, bed.config.taskQueue);
  const res = await send(app, startForm({ task: 'no uploads here' }, { 'a.txt': 'a' }));
  expect(res.status).toBe(415);
  expect(await codeOf(res)).toBe('UNSUPPORTED_MEDIA_TYPE');
  const json = await app.request('/api/agents', {
    method: 'POST',
    body: JSON.stringify({ task: 'plain start' }),
    headers: { 'content-type': 'application/json' },
  });
  expect(json.status).toBe(201);
  await terminate(((await json.json()) as Started).id);
});
