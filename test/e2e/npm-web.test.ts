/**
 * `npm run web` as a real process, the way an operator starts it: configured by the
 * environment (the run's dev server, a free port), it serves the health route, the HTTP API and
 * the web page, and Ctrl-C (SIGINT to its process group) stops it: every process of it ends, the port
 * closes, nothing is reported as an error.
 */
import { watched } from '../harness/npm-start';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../testkit/free-port';
import { runInfo } from '../harness/run-info';
import { uniqueId } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const ROOT = join(__dirname, '..', '..');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `npm run <script>` in the repository with only `env` (and PATH, HOME) set. */
function npmRun(script: string, env: Record<string, string>): Started {
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, as in a terminal: a signal to the group reaches npm and the server.
    detached: true,
  });
  return { child, ...watched(child) };
}

let web: Started | undefined;

/** Whether any process of the process group `pgid` is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(() => {
  // npm may be gone while the server it started lives on: end the whole group.
  const pgid = web?.child.pid;
  if (pgid !== undefined && groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
});

test('npm run web serves healthz, the API and the page on the configured port, and stops on Ctrl-C', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  web = npmRun('web', {
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: uniqueId('web-queue'),
    CAIRN_HTTP_PORT: String(port),
  });
  const started = web;
  await waitUntil('npm run web says where it listens', () => started.output().includes(`Cairn API on ${base}`), {
    timeoutMs: 60_000,
  });

  const health = await fetch(`${base}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', temporal: 'up' });
  const list = await fetch(`${base}/api/agents`);
  expect(list.status).toBe(200);
  expect(Array.isArray(((await list.json()) as { agents: unknown }).agents)).toBe(true);
  const page = await fetch(`${base}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);

  // Ctrl-C: SIGINT to the foreground process group. The server closes its port and exits, and
  // nothing of the group is left; npm itself ends by re-raising the signal (so the script's own
  // exit code is not visible here), or with 0.
  const pgid = started.child.pid ?? 0;
  process.kill(-pgid, 'SIGINT');
  await waitUntil('every process of npm run web ended', () => !groupAlive(pgid));
  expect([
    { code: 0, signal: null },
    { code: null, signal: 'SIGINT' },
  ]).toContainEqual(await started.exited);
  await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  expect(started.output()).not.toMatch(/error/i);
}, 90_000);
