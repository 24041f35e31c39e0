/**
 * The production build as an operator runs it: `scripts/build.ts` (`npm run build`) into a
 * temporary folder, then the worker and the web server started from it with plain `node` — no
 * tsx, the workflow bundle made at build time — the worker configured by a temporal.toml profile
 * and the web server by the standard TEMPORAL_* variables. An agent runs end to end through the
 * built web server's HTTP API on the scripted LLM, the page and its bundled rules module are
 * served from the build, and SIGTERM stops both processes cleanly. Also measures worker start-up
 * (spawn to "Worker on task queue") from source (tsx, webpack bundling at start) and from the
 * build, and prints both.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { finish, plan, planReply, step } from '../harness/plans';
import { runInfo } from '../harness/run-info';
import { uniqueId } from '../harness/test-env';
import { freePort } from '../../testkit/free-port';
import { waitUntil } from '../../testkit/wait-until';

const ROOT = join(__dirname, '..', '..');
const READY = 'Worker on task queue';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Started[] = [];

/** Starts `node <args>` in `cwd` with only `env` (and PATH) set. */
function startNode(args: string[], env: Record<string, string>, cwd: string): Started {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const process_ = { child, output: () => output, exited };
  started.push(process_);
  return process_;
}

/** Milliseconds from spawning a worker to its ready line. */
async function timeToReady(args: string[], env: Record<string, string>, cwd: string): Promise<[number, Started]> {
  const at = Date.now();
  const worker = startNode(args, env, cwd);
  await waitUntil(`the worker (${args.join(' ')}) polls`, () => worker.output().includes(READY) || undefined, {
    timeoutMs: 120_000,
  });
  return [Date.now() - at, worker];
}

async function stop(process_: Started): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  process_.child.kill('SIGTERM');
  return process_.exited;
}

afterAll(() => {
  for (const { child } of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

test('the build runs an agent end to end with plain node, pre-bundled workflows and a temporal.toml profile', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-build-'));
  // The build finds its packages as in the Docker image: node_modules beside the out folder.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const out = join(dir, 'dist');
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const build = spawnSync(process.execPath, ['--import', tsx, join(ROOT, 'scripts', 'build.ts'), out], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect({ status: build.status, stderr: build.stderr }).toEqual({ status: 0, stderr: '' });
  expect(build.stdout).toMatch(/^Built .*workflow bundle/m);
  for (const file of ['worker/main.js', 'worker/workflow-bundle.js', 'client/http/main.js', 'client/cli/main.js']) {
    expect(existsSync(join(out, file))).toBe(true);
  }

  const llm = await ScriptedLlm.start();
  try {
    const queue = uniqueId('build-queue');
    const profile = join(dir, 'temporal.toml');
    writeFileSync(profile, `[profile.cairn-test]\naddress = "${runInfo().temporalAddress}"\nnamespace = "default"\n`);
    const workerEnv = {
      TEMPORAL_CONFIG_FILE: profile,
      TEMPORAL_PROFILE: 'cairn-test',
      CAIRN_TASK_QUEUE: queue,
      OPENAI_BASE_URL: llm.baseUrl,
      CAIRN_MODEL: 'scripted-model',
      CAIRN_WORKSPACE: join(dir, 'workspace'),
      // Worker Deployment versioning is another test's subject; here both workers stay unversioned.
      CAIRN_WORKER_VERSIONING: 'off',
    };

    // From source, as `npm run worker` starts it: tsx, and webpack bundling workflows/ at start.
    const [fromSource, sourceWorker] = await timeToReady(
      ['--import', tsx, join(ROOT, 'worker', 'main.ts')],
      { ...workerEnv, CAIRN_TASK_QUEUE: uniqueId('source-queue') },
      ROOT,
    );
    expect(sourceWorker.output()).toContain('Workflows: bundling workflows/ at start');
    await stop(sourceWorker); // only timed here

    // From the build: plain node, the bundle made at build time.
    const [fromBuild, worker] = await timeToReady([join(out, 'worker', 'main.js')], workerEnv, dir);
    expect(worker.output()).toContain('Workflows: the prebuilt bundle');
    expect(worker.output()).not.toMatch(/webpack|Workflow bundle created/);
    process.stdout.write(
      `\n[production build] worker start-up, spawn to polling: from source (tsx + webpack) ${fromSource} ms, ` +
        `from the build ${fromBuild} ms\n`,
    );

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const web = startNode(
      [join(out, 'client', 'http', 'main.js')],
      { TEMPORAL_ADDRESS: runInfo().temporalAddress, CAIRN_TASK_QUEUE: queue, CAIRN_HTTP_PORT: String(port) },
      dir,
    );
    await waitUntil('the built web server listens', () => web.output().includes(`Cairn API on ${base}`) || undefined, {
      timeoutMs: 60_000,
    });

    // The page, its own modules and the rules module esbuild bundles from the built workflow code.
    expect((await fetch(`${base}/`)).status).toBe(200);
    expect((await fetch(`${base}/web/app.js`)).status).toBe(200);
    const rules = await fetch(`${base}/web/rules.js`);
    expect(rules.status).toBe(200);
    // It loads as an ES module and exports what the page imports.
    const rulesFile = join(dir, 'rules.mjs');
    writeFileSync(rulesFile, await rules.text());
    const check = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(pathToFileURL(rulesFile).href)});\n` +
          `if (!m.isTerminalPhase('completed') || m.stepWorkflowId('a', 's1') !== 'a/step-s1') process.exit(3);\n` +
          `if (typeof m.checkFormField !== 'function') process.exit(4);`,
      ],
      { encoding: 'utf8' },
    );
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });

    llm.respondWith(
      byRoute({
        plan: [planReply(plan([step('s1')]))],
        'step:s1': [finish('built step result')],
        summary: [reply.text('answered by the build')],
      }),
    );
    const created = await fetch(`${base}/api/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: 'Run from the build' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const done = await waitUntil(
      'the agent completes',
      async () => {
        const state = (await (await fetch(`${base}/api/agents/${id}`)).json()) as AgentState;
        return state.phase === 'completed' ? state : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(done.result).toBe('answered by the build');
    expect(llm.unscripted).toEqual([]);

    // SIGTERM, as `docker stop` sends it to the container's node process: both drain and exit 0.
    const webExit = await stop(web);
    const workerExit = await stop(worker);
    expect({ web: webExit, worker: workerExit }).toEqual({
      web: { code: 0, signal: null },
      worker: { code: 0, signal: null },
    });
    expect(`${web.output()}${worker.output()}`).not.toMatch(/error/i);
  } finally {
    await llm.close();
  }
}, 400_000);
