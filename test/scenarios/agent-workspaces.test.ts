/**
 * A workspace per agent (docs/operations.md#agent-workspaces): each agent's file tools work in
 * its own folder below CAIRN_WORKSPACE, shared by its nested agents; another agent can neither
 * read nor list it (refused with PATH_REFUSED, or simply not there). The HTTP API lists an
 * agent's folder (inputs and outputs, with sizes) and downloads its files as attachments, and
 * refuses paths that lead out of it — encoded `..`, absolute paths, a symbolic link planted in
 * the folder. With CAIRN_RECORD_HISTORIES=1 the writing agent's history is kept (the
 * cairn-agent-workspace patch's new path).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { bundleWorkflowCode } from '@temporalio/worker';
import { SessionStore } from '../../client/http/auth/sessions';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import { agentWorkspaceDir, workspaceFolderName } from '../../config/agent-workspace';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { agentFile, startAgent, stateOf } from '../harness/agents';
import { recordHistory } from '../harness/histories';
import { finish, plan, planReply, step } from '../harness/plans';
import { uniqueId, withWorker } from '../harness/test-env';
import { quietLogger } from '../harness/quiet-logger';
import { PRELOAD_MODULES, WORKFLOW_INTERCEPTOR_MODULES } from '../../worker/workflows-path';
import { testApp } from '../harness/http-app';

const workspace = mkdtempSync(join(tmpdir(), 'agent-workspaces-'));
const bed = agentTestbed({ CAIRN_WORKSPACE: workspace, CAIRN_AUTO_APPROVE: 'write_file' });

const VIEWER_TOKEN = 'token-of-the-viewer-of-this-test-0123';
const OPERATOR_TOKEN = 'token-of-the-operator-of-this-test-0123';

/** The tool message answering `callId` in the step `stepId`'s requests. */
function toolMessage(stepId: string, callId: string): string {
  for (const request of bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === stepId)) {
    const message = request.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
    if (message) return typeof message.content === 'string' ? message.content : '';
  }
  return '';
}

function appFor(): OpenAPIHono {
  const people = [
    { principal: 'vic', roles: ['viewer' as const], tokenSha256: sha256Hex(VIEWER_TOKEN) },
    { principal: 'olga', roles: ['operator' as const], tokenSha256: sha256Hex(OPERATOR_TOKEN) },
  ];
  return testApp(bed.client, bed.config.taskQueue, {
    auth: { mode: 'tokens', tokens: new TokenTable(people), sessions: new SessionStore() },
    workspace,
  });
}

const get = (app: OpenAPIHono, path: string, token = VIEWER_TOKEN) =>
  app.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });

const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

test('an agent writes in its own folder; another agent cannot read or list it; the API lists and serves it safely', async () => {
  // Agent A writes two files, one through its nested agent (which shares A's folder).
  const a = uniqueId('agent-test');
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('n1')]))],
      'step:s1': [
        reply.toolCall('write_file', { path: 'report.md', content: '# A secret report\n' }, 'w1'),
        reply.toolCall('sub_agent', { task: 'Write the page' }, 'sa1'),
        finish('wrote'),
      ],
      'step:n1': [
        reply.toolCall('write_file', { path: 'web/page.html', content: '<script>alert(1)</script>' }, 'w2'),
        finish('page'),
      ],
      summary: [reply.text('page written'), reply.text('done')],
    }),
  );
  const folderA = agentWorkspaceDir(workspace, a);
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'write a report' }, a);
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    expect((await stateOf(handle)).workspace).toBe('agent');
    await recordHistory('agent-workspace', handle);
    await recordHistory('step-agent-workspace', bed.client.workflow.getHandle(`${a}/step-s1`));
  });
  expect(readFileSync(join(folderA, 'report.md'), 'utf8')).toBe('# A secret report\n');
  expect(readFileSync(join(folderA, 'web/page.html'), 'utf8')).toContain('<script>');
  // Nothing landed in the root itself.
  expect(statSync(join(workspace, 'report.md'), { throwIfNoEntry: false })).toBeUndefined();

  // Agent B tries A's file through `..`, by its plain name, and lists A's folder and its own.
  const b = uniqueId('agent-test');
  const toA = `../${workspaceFolderName(a)}`;
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('b1')]))],
      'step:b1': [
        reply.toolCall('read_file', { path: `${toA}/report.md` }, 'up'),
        reply.toolCall('read_file', { path: 'report.md' }, 'plain'),
        reply.toolCall('list_files', { path: toA }, 'listA'),
        reply.toolCall('list_files', {}, 'listOwn'),
        reply.toolCall('read_file', { path: join(folderA, 'report.md') }, 'absolute'),
        finish('could not'),
      ],
      summary: [reply.text('nothing')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'read what A wrote' }, b);
    expect(await handle.result()).toMatchObject({ status: 'completed' });
  });
  expect(toolMessage('b1', 'up')).toMatch(/^error: .*PATH_REFUSED: ".*report\.md" leaves the workspace/);
  expect(toolMessage('b1', 'plain')).toMatch(/^error: .*"report\.md" does not exist in the workspace/);
  expect(toolMessage('b1', 'listA')).toMatch(/^error: .*PATH_REFUSED: .* leaves the workspace/);
  expect(toolMessage('b1', 'listOwn')).not.toContain('report.md');
  expect(toolMessage('b1', 'absolute')).toMatch(/^error: .*PATH_REFUSED: .* is absolute/);
  const toB = agentFile(workspace, b, '');

  // The API: an input (as an upload is stored), a symbolic link planted in A's folder to B's.
  mkdirSync(join(folderA, 'inputs'), { recursive: true });
  writeFileSync(join(folderA, 'inputs', 'brief.txt'), 'the brief');
  mkdirSync(toB, { recursive: true });
  writeFileSync(join(toB, 'b-secret.txt'), 'B only');
  symlinkSync(toB, join(folderA, 'to-b'));
  const app = appFor();
  await withWorker(bed.config, async () => {
    // a closed agent's state is read by replay: a worker answers
    const listed = await get(app, `/api/agents/${a}/files`);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({
      workspace: 'agent',
      files: [
        { path: 'inputs/brief.txt', size: Buffer.byteLength('the brief'), kind: 'input' },
        { path: 'report.md', size: Buffer.byteLength('# A secret report\n'), kind: 'output' },
        { path: 'web/page.html', size: Buffer.byteLength('<script>alert(1)</script>'), kind: 'output' },
      ],
    });

    const report = await get(app, `/api/agents/${a}/files/report.md`);
    expect(report.status).toBe(200);
    expect(await report.text()).toBe('# A secret report\n');
    expect(report.headers.get('content-disposition')).toBe(
      `attachment; filename="report.md"; filename*=UTF-8''report.md`,
    );
    expect(report.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    // HTML from a workspace is never served as HTML, nor rendered, nor sniffed.
    const page = await get(app, `/api/agents/${a}/files/web/page.html`);
    expect(await page.text()).toBe('<script>alert(1)</script>');
    expect({
      type: page.headers.get('content-type'),
      disposition: page.headers.get('content-disposition')?.split(';')[0],
      nosniff: page.headers.get('x-content-type-options'),
      csp: page.headers.get('content-security-policy'),
    }).toEqual({ type: 'application/octet-stream', disposition: 'attachment', nosniff: 'nosniff', csp: 'sandbox' });

    const refused = async (path: string) => {
      const res = await get(app, `/api/agents/${a}/files/${path}`);
      return `${res.status} ${await codeOf(res)}`;
    };
    expect(await refused(`..%2F${workspaceFolderName(b)}%2Fb-secret.txt`)).toBe('400 PATH_REFUSED');
    expect(await refused(`web%2F..%2F..%2F${workspaceFolderName(b)}%2Fb-secret.txt`)).toBe('400 PATH_REFUSED');
    expect(await refused(encodeURIComponent(join(toB, 'b-secret.txt')))).toBe('400 PATH_REFUSED');
    expect(await refused('to-b/b-secret.txt')).toBe('400 PATH_REFUSED');
    expect(await refused('nothing-here.txt')).toBe('404 NOT_FOUND');
    expect(await refused('web')).toBe('404 NOT_FOUND'); // a folder is no file

    // Another agent's listing holds only its own; an unknown agent is 404; no credentials, 401.
    expect(((await (await get(app, `/api/agents/${b}/files`)).json()) as { files: unknown[] }).files).toEqual([
      { path: 'b-secret.txt', size: 6, kind: 'output' },
    ]);
    const unknown = await get(app, `/api/agents/${uniqueId('nobody')}/files/report.md`);
    expect(`${unknown.status} ${await codeOf(unknown)}`).toBe('404 NOT_FOUND');
    const anonymous = await get(app, `/api/agents/${a}/files/report.md`, '');
    expect(`${anonymous.status} ${await codeOf(anonymous)}`).toBe('401 UNAUTHORIZED');
  });
});

test('an agent in the shared root (a nested agent of an agent begun before per-agent folders) writes there; the API lists none of its files', async () => {
  const write = (path: string) => [reply.toolCall('write_file', { path, content: path }, 'w'), finish('wrote')];
  bed.llm.respondWith(byRoute({ 'step:task': [...write('shared-note.txt'), ...write('own-note.txt')] }));
  const app = appFor();
  await withWorker(bed.config, async () => {
    // As a step of such an agent starts its nested agent (straight through Temporal).
    const shared = await startAgent(bed.client, bed.config, {
      task: 'write in the root',
      nested: true,
      sharedWorkspace: true,
      mode: { plan: false },
    });
    expect(await shared.result()).toMatchObject({ status: 'completed' });
    expect((await stateOf(shared)).workspace).toBeUndefined();
    expect(readFileSync(join(workspace, 'shared-note.txt'), 'utf8')).toBe('shared-note.txt');
    expect(await (await get(app, `/api/agents/${shared.workflowId}/files`)).json()).toEqual({
      files: [],
      workspace: 'shared',
    });
    const download = await get(app, `/api/agents/${shared.workflowId}/files/shared-note.txt`);
    expect(`${download.status} ${await codeOf(download)}`).toBe('404 NOT_FOUND');

    // Through the HTTP API nobody can ask for the shared root: a body naming it is refused.
    const start = (body: unknown) =>
      app.request('/api/agents', {
        method: 'POST',
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await start({ task: 'write my own', nested: true, sharedWorkspace: true, mode: { plan: false } });
    expect(`${refused.status} ${await codeOf(refused)}`).toBe('400 INVALID_INPUT');
    const started = await start({ task: 'write my own', mode: { plan: false } });
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    const own = bed.client.workflow.getHandle(id);
    await own.result();
    expect(readFileSync(agentFile(workspace, id, 'own-note.txt'), 'utf8')).toBe('own-note.txt');
    expect(statSync(join(workspace, 'own-note.txt'), { throwIfNoEntry: false })).toBeUndefined();
  });
});

test('a nested agent started by an agent begun before per-agent folders works in the shared root like its parent', async () => {
  const bundle = await bundleWorkflowCode({
    workflowsPath: join(__dirname, 'variants', 'before-agent-workspace.ts'),
    preloadModules: PRELOAD_MODULES,
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: quietLogger,
  });
  const older = join(mkdtempSync(join(tmpdir(), 'cairn-before-workspaces-')), 'workflow-bundle.js');
  writeFileSync(older, bundle.code);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('n1')]))],
      'step:s1': [reply.toolCall('sub_agent', { task: 'Write a note' }, 'sa1'), finish('delegated')],
      'step:n1': [reply.toolCall('write_file', { path: 'nested-note.txt', content: 'in the root' }, 'w'), finish('ok')],
      summary: [reply.text('note written'), reply.text('done')],
    }),
  );
  const id = uniqueId('agent-test');
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'delegate a note' }, id);
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      const nested = bed.client.workflow.getHandle(`${id}/step-s1/sub-sa1`);
      expect((await stateOf(nested)).workspace).toBeUndefined();
    },
    undefined,
    { workflowBundlePath: older },
  );
  expect(readFileSync(join(workspace, 'nested-note.txt'), 'utf8')).toBe('in the root');
  expect(existsSync(agentWorkspaceDir(workspace, id))).toBe(false);
}, 60_000);
