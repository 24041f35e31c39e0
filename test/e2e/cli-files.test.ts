/**
 * `cairn run --file <path>` as a real process (docs/contracts.md#cli): through the HTTP API the
 * files are uploaded with the start; straight to Temporal they are copied into the agent's folder
 * under CAIRN_WORKSPACE. Either way they land as `inputs/<name>` and the planner and the step are
 * told their paths. A missing file, or no place to put the files, exits 2 before anything starts.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import { DEFAULT_UPLOAD_LIMITS } from '../../config/upload-config';
import { STAGING_FOLDER } from '../../client/uploads/store-uploads';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { runCairn } from '../harness/cairn-cli';
import { makePdf } from '../harness/documents';
import { testApp } from '../harness/http-app';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker } from '../harness/test-env';

const bed = agentTestbed();

jest.setTimeout(120_000);

/** Two files on the CLI's side: a PDF and a CSV. */
function localFiles(): { dir: string; pdf: Buffer; csv: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cli-files-'));
  const pdf = makePdf(['Brief for the quarter']);
  const csv = 'id,item\n1,lamp\n';
  writeFileSync(join(dir, 'brief.pdf'), pdf);
  writeFileSync(join(dir, 'orders.csv'), csv);
  return { dir, pdf, csv };
}

function scriptOneStep(): void {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('read')],
      summary: [reply.text('done')],
    }),
  );
}

/** The first user message of `purpose`. */
function firstUserMessage(purpose: string): string {
  const request = bed.llm.requests.find((r) => r.headers['x-cairn-purpose'] === purpose);
  const message = request?.body.messages.find((m) => m.role === 'user');
  return typeof message?.content === 'string' ? message.content : '';
}

/** The files the run stored for agent `id` under `root`, checked byte for byte, and the planner and step told. */
function expectStored(root: string, id: string, files: { pdf: Buffer; csv: string }): void {
  const inputs = join(agentWorkspaceDir(root, id), 'inputs');
  expect(readdirSync(inputs).sort()).toEqual(['brief.pdf', 'orders.csv']);
  expect(readFileSync(join(inputs, 'brief.pdf')).equals(files.pdf)).toBe(true);
  expect(readFileSync(join(inputs, 'orders.csv'), 'utf8')).toBe(files.csv);
  for (const purpose of ['plan', 'step'])
    expect(firstUserMessage(purpose)).toContain('- inputs/brief.pdf\n- inputs/orders.csv');
}

test('through the API: the files are uploaded with the start', async () => {
  const files = localFiles();
  const root = mkdtempSync(join(tmpdir(), 'cli-files-ws-'));
  const app = testApp(bed.client, bed.config.taskQueue, { uploads: { root, limits: DEFAULT_UPLOAD_LIMITS } });
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server: s, port: info.port }),
    );
  });
  scriptOneStep();
  try {
    await withWorker(bed.config, async () => {
      const run = await runCairn(
        [
          'run',
          'Summarise the brief',
          '--file',
          join(files.dir, 'brief.pdf'),
          '--file',
          join(files.dir, 'orders.csv'),
          '--json',
        ],
        { CAIRN_API_URL: `http://127.0.0.1:${port}` },
      );
      expect([run.code, run.stderr]).toEqual([0, expect.any(String)]);
      const { id, status } = JSON.parse(run.stdout) as { id: string; status: string };
      expect(status).toBe('completed');
      expectStored(root, id, files);
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('straight to Temporal: the files are copied into the agent folder under CAIRN_WORKSPACE', async () => {
  const files = localFiles();
  const root = mkdtempSync(join(tmpdir(), 'cli-files-ws-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: root });
  scriptOneStep();
  await withWorker(config, async () => {
    const run = await runCairn(
      [
        'run',
        'Summarise the brief',
        '--file',
        join(files.dir, 'brief.pdf'),
        '--file',
        join(files.dir, 'orders.csv'),
        '--json',
      ],
      { CAIRN_TASK_QUEUE: config.taskQueue, CAIRN_WORKSPACE: root },
    );
    expect([run.code, run.stderr]).toEqual([0, expect.any(String)]);
    const { id, status } = JSON.parse(run.stdout) as { id: string; status: string };
    expect(status).toBe('completed');
    expectStored(root, id, files);
  });
});

test('files over a limit or of a refused type exit 2 with the code, nothing stored, through the API or not', async () => {
  const files = localFiles();
  writeFileSync(join(files.dir, 'big.txt'), Buffer.alloc(2 * 1024 * 1024, 'x'));
  writeFileSync(join(files.dir, 'tool.exe'), 'MZ');
  const root = mkdtempSync(join(tmpdir(), 'cli-files-ws-'));
  // Over the socket: the server refuses from Content-Length, the CLI prints its status and code.
  const limits = { ...DEFAULT_UPLOAD_LIMITS, maxFileBytes: 64 * 1024, maxRequestBytes: 1024 * 1024 };
  const app = testApp(bed.client, bed.config.taskQueue, { uploads: { root, limits } });
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server: s, port: info.port }),
    );
  });
  try {
    const big = await runCairn(['run', 'Read it', '--file', join(files.dir, 'big.txt')], {
      CAIRN_API_URL: `http://127.0.0.1:${port}`,
    });
    expect([big.code, big.stderr]).toEqual([2, expect.stringContaining('413 UPLOAD_TOO_LARGE')]);
    const exe = await runCairn(['run', 'Read it', '--file', join(files.dir, 'tool.exe')], {
      CAIRN_API_URL: `http://127.0.0.1:${port}`,
    });
    expect([exe.code, exe.stderr]).toEqual([2, expect.stringContaining('415 UPLOAD_TYPE_REFUSED')]);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  // Straight to Temporal the same checks run before anything is copied.
  const direct = await runCairn(['run', 'Read it', '--file', join(files.dir, 'tool.exe')], {
    CAIRN_TASK_QUEUE: bed.config.taskQueue,
    CAIRN_WORKSPACE: root,
  });
  expect([direct.code, direct.stderr]).toEqual([2, expect.stringContaining('UPLOAD_TYPE_REFUSED')]);
  expect(readdirSync(root).filter((name) => name !== STAGING_FOLDER)).toEqual([]);
});

test('a missing file, or no workspace to copy into, exits 2 before anything starts', async () => {
  const files = localFiles();
  const root = mkdtempSync(join(tmpdir(), 'cli-files-ws-'));
  const missing = await runCairn(['run', 'Read it', '--file', join(files.dir, 'nope.pdf')], {
    CAIRN_TASK_QUEUE: bed.config.taskQueue,
    CAIRN_WORKSPACE: root,
  });
  expect([missing.code, missing.stderr]).toEqual([
    2,
    expect.stringMatching(/--file .*nope\.pdf: cannot read .*ENOENT/),
  ]);
  const nowhere = await runCairn(['run', 'Read it', '--file', join(files.dir, 'brief.pdf')], {
    CAIRN_TASK_QUEUE: bed.config.taskQueue,
  });
  expect([nowhere.code, nowhere.stderr]).toEqual([
    2,
    expect.stringMatching(/--file needs .*CAIRN_API_URL.*CAIRN_WORKSPACE/),
  ]);
  // No agent folder and nothing staged.
  expect(readdirSync(root).filter((name) => name !== STAGING_FOLDER)).toEqual([]);
});
