/**
 * Encrypted payloads end to end (docs/operations.md#encrypted-payloads), on a dev server of this
 * file's own so that its SQLite file holds nothing else: with keys configured, an agent reads a
 * file holding one marker, writes another file, gets a second marker from a form and a third
 * from a local web server. Afterwards none of the markers — nor the task's text — is anywhere in
 * the database files or in `temporal workflow show` without the codec; through the codec server
 * (`--codec-endpoint`, an operator's token) all of them are, and a viewer's decode is refused.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { AgentClient } from '../../client/agents/agent-client';
import { SessionStore } from '../../client/http/auth/sessions';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import type { CodecAuditRecord } from '../../client/http/routes/codec';
import { startDevServer, type DevServer } from '../../scripts/dev-server';
import { lowFreePort } from '../../testkit/low-port';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { answer, waitForInteraction, type AgentHandle, agentFolder, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { scanEncryption } from '../harness/encryption-scan';
import { runInfo } from '../harness/run-info';
import { testConfig, withWorker } from '../harness/test-env';
import { appOver } from '../harness/http-app';

const run = promisify(execFile);
const suffix = randomUUID().slice(0, 8);
const MARKERS = {
  task: `task-words-${suffix}`,
  file: `file-marker-${suffix}`,
  form: `form-marker-${suffix}`,
  web: `web-marker-${suffix}`,
};
const OPERATOR_TOKEN = 'operator-token-of-the-codec-test-0123';
const VIEWER_TOKEN = 'viewer-token-of-the-codec-test-012345';

let dir: string;
let server: DevServer;
let web: Server;
let webUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-encrypted-'));
  server = await startDevServer({
    cli: runInfo().temporalCli,
    dbFile: join(dir, 'temporal.db'),
    port: await lowFreePort(),
    logFile: join(dir, 'temporal.log'),
  });
  web = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(MARKERS.web));
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/page`;
}, 60_000);

afterAll(async () => {
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
  await server.stop();
});

/** Everything the dev server wrote: the database and its write-ahead log, as text. */
function databaseText(): string {
  const db = join(dir, 'temporal.db');
  return [db, `${db}-wal`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('\n');
}

/**
 * The JSON text with every payload's `data` (which the CLI prints as base64) added decoded, so
 * that a marker inside a plain payload shows as text.
 */
function withPayloadsDecoded(json: string): string {
  const decoded: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if ('metadata' in record && typeof record.data === 'string') {
        decoded.push(Buffer.from(record.data, 'base64').toString('utf8'));
      }
      Object.values(record).forEach(visit);
    }
  };
  visit(JSON.parse(json));
  return `${json}\n${decoded.join('\n')}`;
}

/** `temporal workflow show -o json` of the agent and its step, with `extra` flags, payloads decoded. */
async function show(workflowId: string, extra: string[]): Promise<string> {
  const outputs: string[] = [];
  for (const id of [workflowId, `${workflowId}/step-s1`]) {
    const args = ['workflow', 'show', '-w', id, '--address', server.address, '-o', 'json', ...extra];
    const { stdout } = await run(runInfo().temporalCli, args, { maxBuffer: 64 * 1024 * 1024 });
    outputs.push(withPayloadsDecoded(stdout));
  }
  return outputs.join('\n');
}

/**
 * Where the run puts payloads, each of which the scan must see: the input, memo, summaries,
 * signals both ways, the answer update and its result, activities' and the child's input and
 * result, a local activity's result, and the 503's failure details on the retried attempt.
 */
const SCANNED_PLACES = [
  'workflowExecutionStartedEventAttributes.input.payloads[0]',
  'workflowExecutionStartedEventAttributes.memo.fields.task',
  'userMetadata.summary',
  'workflowExecutionSignaledEventAttributes.input.payloads[0]',
  'signalExternalWorkflowExecutionInitiatedEventAttributes.input.payloads[0]',
  'workflowExecutionUpdateAcceptedEventAttributes.acceptedRequest.input.args.payloads[0]',
  'workflowExecutionUpdateCompletedEventAttributes.outcome.success.payloads[0]',
  'activityTaskScheduledEventAttributes.input.payloads[0]',
  'activityTaskCompletedEventAttributes.result.payloads[0]',
  'activityTaskStartedEventAttributes.lastFailure.applicationFailureInfo.details.payloads[0]',
  'markerRecordedEventAttributes.details.result.payloads[0]',
  'startChildWorkflowExecutionInitiatedEventAttributes.input.payloads[0]',
  'childWorkflowExecutionCompletedEventAttributes.result.payloads[0]',
  'workflowExecutionCompletedEventAttributes.result.payloads[0]',
];

const b64 = (text: string) => Buffer.from(text).toString('base64');
const present = (text: string) => Object.values(MARKERS).filter((m) => text.includes(m));

test('with keys configured no marker reaches the database or the CLI without the codec; the codec server shows them all', async () => {
  const llm = await ScriptedLlm.start();
  const workspace = join(dir, 'workspace');
  const config = testConfig(llm, {
    TEMPORAL_ADDRESS: server.address,
    CAIRN_ENCRYPTION_KEYS: `test-key:${randomBytes(32).toString('base64')}`,
    CAIRN_WORKSPACE: workspace,
    CAIRN_FETCH_ALLOW: 'loopback',
    CAIRN_AUTO_APPROVE: 'write_file',
    CAIRN_COMPRESSION: 'off',
  });
  const fields = [{ key: 'note', label: 'Note', type: 'input', required: true }];
  llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('read_file', { path: 'in.txt' }, 'read'),
        reply.toolCall('ask_user', { kind: 'form', prompt: 'A note, please', fields }, 'form'),
        reply.toolCall('write_file', { path: 'out.txt', content: 'copied' }, 'write'),
        reply.toolCall('http_fetch', { url: webUrl }, 'fetch'),
        finish('step done'),
      ],
      summary: [reply.error(503), reply.text('all done')], // the retry records the failure's details
    }),
  );
  const agents = await AgentClient.connect(config);
  const audits: CodecAuditRecord[] = [];
  const people = [
    { principal: 'olga', roles: ['operator' as const], tokenSha256: sha256Hex(OPERATOR_TOKEN) },
    { principal: 'vic', roles: ['viewer' as const], tokenSha256: sha256Hex(VIEWER_TOKEN) },
  ];
  const app = appOver(agents, {
    auth: { mode: 'tokens', tokens: new TokenTable(people), sessions: new SessionStore() },
    payloads: config.payloads,
    codecAudit: (record) => audits.push(record),
  });
  const http = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const codecEndpoint = `http://127.0.0.1:${(http.address() as AddressInfo).port}/codec`;
  try {
    const workflowId = await withWorker(config, async () => {
      const id = await agents.start({ task: `Copy the file, ask for a note and fetch the page ${MARKERS.task}` });
      // Into the agent's own folder, named by the generated id: its step reads it only after the plan call.
      writeFileSync(join(agentFolder(config, id), 'in.txt'), `the secret line: ${MARKERS.file}\n`);
      const handle: AgentHandle = agents.temporal.workflow.getHandle(id);
      const form = await waitForInteraction(handle, 'ask.form', 's1');
      await answer(handle, form.id, { values: { note: MARKERS.form } });
      expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'all done' });
      return id;
    });
    // The agent did read, write and fetch: the markers reached the model.
    const sent = JSON.stringify(llm.requests.map((r) => r.body.messages));
    expect(present(sent).sort()).toEqual(Object.values(MARKERS).sort());
    expect(readFileSync(agentFile(workspace, workflowId, 'out.txt'), 'utf8')).toBe('copied');
    // The generated id leaves the task out.
    expect(workflowId).toMatch(/^agent-task-[a-z0-9]{8}$/);

    // Every payload of both histories is encrypted: read from the payloads' metadata, so a payload
    // left compressed but unencrypted (which hides a marker as well) fails too.
    const histories = await Promise.all(
      [workflowId, `${workflowId}/step-s1`].map((id) => agents.temporal.workflow.getHandle(id).fetchHistory()),
    );
    const scan = scanEncryption(...histories);
    expect(scan.unencrypted).toEqual([]);
    const places = new Set(scan.payloads.map((p) => p.path.replace(/^histories\[\d+\]\.events\[\d+\]\./, '')));
    expect([...places]).toEqual(expect.arrayContaining(SCANNED_PLACES));
    const db = databaseText();
    expect(db).toContain(workflowId); // the right file, and written
    expect(present(db)).toEqual([]);
    const plain = await show(workflowId, []);
    expect(plain).toContain(Buffer.from('binary/encrypted').toString('base64')); // metadata, as the CLI prints it
    expect(present(plain)).toEqual([]);

    const operator = ['--codec-endpoint', codecEndpoint, '--codec-auth', `Bearer ${OPERATOR_TOKEN}`];
    const decoded = await show(workflowId, [...operator, '--codec-header', `X-Workflow-Id=${workflowId}`]);
    expect(present(decoded).sort()).toEqual(Object.values(MARKERS).sort());
    expect(audits.length).toBeGreaterThan(0);
    expect(audits.every((a) => a.principal === 'olga' && a.outcome === 'decoded' && a.namespace === 'default')).toBe(
      true,
    );
    expect(audits.some((a) => a.workflowId === workflowId && a.keyIds.includes('test-key'))).toBe(true);

    // A viewer may not decode: refused before any payload is touched, and nothing audited.
    const post = (path: string, token: string, body: unknown) =>
      fetch(`${codecEndpoint}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-namespace': 'default' },
        body: JSON.stringify(body),
      });
    const plainPayload = { metadata: { encoding: b64('json/plain') }, data: b64(JSON.stringify(MARKERS.form)) };
    const encoded = (await (await post('encode', OPERATOR_TOKEN, { payloads: [plainPayload] })).json()) as {
      payloads: { metadata: Record<string, string> }[];
    };
    expect(encoded.payloads[0]?.metadata['encryption-key-id']).toBe(b64('test-key'));
    const before = audits.length;
    const refused = await post('decode', VIEWER_TOKEN, encoded);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    expect(audits).toHaveLength(before);
    const allowed = await post('decode', OPERATOR_TOKEN, encoded);
    expect(await allowed.json()).toEqual({ payloads: [plainPayload] });
    expect(audits).toHaveLength(before + 1);
  } finally {
    await new Promise((resolve) => http.close(resolve));
    await agents.close();
    await llm.close();
  }
}, 180_000);
