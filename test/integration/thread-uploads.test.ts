/**
 * Files sent with a thread's messages as multipart/form-data (docs/contracts.md#uploads), against
 * the real dev server and worker: stored as `inputs/<name>` in the thread's folder (which its
 * turns share), named to the task turn's planner and read by its step; a later message's file of
 * the same name is stored beside the first, never over it; over a limit 413 UPLOAD_TOO_LARGE and
 * a refused type 415 UPLOAD_TYPE_REFUSED, with nothing stored and no turn recorded.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../../config/upload-config';
import { STAGING_FOLDER } from '../../client/uploads/store-uploads';
import { ThreadClient } from '../../client/threads/thread-client';
import { threadTurnWorkflowId, type ThreadView } from '../../workflows/contract/thread-contract';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { postJson, testApp } from '../harness/http-app';
import { startForm, type MultipartBody } from '../harness/multipart';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

/** An app storing uploads under a fresh workspace root, with `limits` over the defaults. */
function uploadApp(limits: Partial<UploadLimits> = {}): { app: OpenAPIHono; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'thread-uploads-'));
  const app = testApp(bed.client, bed.config.taskQueue, {
    uploads: { root, limits: { ...DEFAULT_UPLOAD_LIMITS, ...limits } },
    threads: new ThreadClient(bed.client, bed.config.taskQueue),
  });
  return { app, root };
}

function post(app: OpenAPIHono, path: string, form: MultipartBody) {
  return Promise.resolve(
    app.request(path, {
      method: 'POST',
      body: form.body,
      headers: { 'content-type': form.contentType, 'content-length': String(form.body.length) },
    }),
  );
}

async function codeOf(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

/** The user message of the first request of `purpose` (and, for a step, of step `stepId`). */
function firstUserMessage(purpose: string, stepId?: string): string {
  const request = bed.llm.requests.find(
    (r) => r.headers['x-cairn-purpose'] === purpose && (stepId === undefined || r.headers['x-cairn-step'] === stepId),
  );
  const message = request?.body.messages.find((m) => m.role === 'user');
  return typeof message?.content === 'string' ? message.content : '';
}

/** The tool result for `callId` in the requests of step s1. */
function toolResult(callId: string): string {
  for (const request of bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1')) {
    const message = request.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
    if (typeof message?.content === 'string') return message.content;
  }
  return '';
}

const NOTES = 'The launch is on 12 March; budget 4,200 EUR.';

test("a file sent with a thread's first message is stored in the thread's folder and read by the task turn's step; a later one of the same name goes beside it", async () => {
  const { app, root } = uploadApp();
  const config = { ...bed.config, workspace: root, ledgerDir: `${root}.ledger` };
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('read_file', { path: 'inputs/notes.txt' }, 'notes'),
        finish('read it'),
        finish('read the second'),
      ],
      summary: [reply.text('The launch is on 12 March.'), reply.text('Got the second file.')],
    }),
  );
  await withWorker(config, async () => {
    const opened = await post(
      app,
      '/api/threads',
      startForm({ text: 'when is the launch?', kind: 'task' }, { 'notes.txt': NOTES }),
    );
    expect(opened.status).toBe(201);
    const { id, files } = (await opened.json()) as { id: string; files: string[] };
    expect(files).toEqual(['inputs/notes.txt']);
    const inputs = join(agentWorkspaceDir(root, id), 'inputs');
    expect(readFileSync(join(inputs, 'notes.txt'), 'utf8')).toBe(NOTES);
    const turn = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    expect(await turn.result()).toMatchObject({ status: 'completed' });

    // A chat reply cannot read files: a message with files that asks for one is refused, nothing stored.
    const asChat = await post(
      app,
      `/api/threads/${id}/messages`,
      startForm({ text: 'and this one', kind: 'chat' }, { 'notes.txt': 'second notes' }),
    );
    expect(asChat.status).toBe(400);
    expect(((await asChat.json()) as { error: { code: string; field?: string } }).error).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'kind',
    });
    // Steering hands the running steps text only: a message with files that asks to steer is refused too.
    const asSteer = await post(
      app,
      `/api/threads/${id}/messages`,
      startForm({ text: 'and this one', policy: 'steer' }, { 'notes.txt': 'second notes' }),
    );
    expect(asSteer.status).toBe(400);
    expect(((await asSteer.json()) as { error: { code: string; field?: string } }).error).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'policy',
    });
    expect(readdirSync(inputs)).toEqual(['notes.txt']);
    // With no kind it runs as a task (no routing call); its file has the same name as the first:
    // stored beside it, which stays as it was.
    const second = await post(
      app,
      `/api/threads/${id}/messages`,
      startForm({ text: 'and this one' }, { 'notes.txt': 'second notes' }),
    );
    expect(second.status).toBe(202);
    expect(await second.json()).toEqual({ messageId: 'msg-2', disposition: 'started', files: ['inputs/notes-2.txt'] });
    expect(readFileSync(join(inputs, 'notes.txt'), 'utf8')).toBe(NOTES);
    expect(readFileSync(join(inputs, 'notes-2.txt'), 'utf8')).toBe('second notes');
    expect(await bed.client.workflow.getHandle(threadTurnWorkflowId(id, 2)).result()).toMatchObject({
      status: 'completed',
    });
    expect(bed.llm.requestsFor('route-message')).toHaveLength(0);
  });
  // The turn's planner and its step are told the file; the step's read_file got its text.
  expect(firstUserMessage('plan')).toContain('- inputs/notes.txt');
  expect(firstUserMessage('step', 's1')).toContain('- inputs/notes.txt');
  expect(toolResult('notes')).toContain(NOTES);
});

test('a thread message over an upload limit, or with a refused type, is refused with nothing stored and no turn', async () => {
  const { app, root } = uploadApp({ maxFileBytes: 1000, types: ['txt'] });
  bed.llm.respondWith(byRoute({}));
  await withWorker(bed.config, async () => {
    const opened = await postJson(app, '/api/threads', {});
    const { id } = (await opened.json()) as { id: string };
    const big = await post(
      app,
      `/api/threads/${id}/messages`,
      startForm({ text: 'read this', kind: 'task' }, { 'big.txt': 'x'.repeat(1001) }),
    );
    expect(big.status).toBe(413);
    expect(await codeOf(big)).toBe('UPLOAD_TOO_LARGE');
    const typed = await post(
      app,
      `/api/threads/${id}/messages`,
      startForm({ text: 'read this', kind: 'task' }, { 'run.sh': 'echo hi' }),
    );
    expect(typed.status).toBe(415);
    expect(await codeOf(typed)).toBe('UPLOAD_TYPE_REFUSED');
    // A message the thread does not take (no such thread): its file does not stay either.
    const missing = await post(
      app,
      '/api/threads/thread-none-00000000/messages',
      startForm({ text: 'read this', kind: 'task' }, { 'small.txt': 'ok' }),
    );
    expect(missing.status).toBe(404);
    const view = (await (await app.request(`/api/threads/${id}`)).json()) as ThreadView;
    expect(view.turns).toEqual([]);
  });
  const staging = join(root, STAGING_FOLDER);
  if (existsSync(staging)) expect(readdirSync(staging)).toEqual([]);
  expect(readdirSync(root).filter((name) => name !== STAGING_FOLDER)).toEqual([]);
  expect(bed.llm.requests).toHaveLength(0);
});
