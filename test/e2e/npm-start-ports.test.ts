/**
 * `npm start` as a new user meets it, with each of its ports taken: the web page's
 * (CAIRN_HTTP_PORT), the embedded Temporal server's gRPC port (CAIRN_TEMPORAL_PORT) held by
 * something that is not Temporal, and its Web UI port (CAIRN_TEMPORAL_UI_PORT). Each is one line
 * naming the port, its variable and who holds it, a non-zero exit, and no process left behind
 * (read from `ps`). With the ports free, CAIRN_TEMPORAL_PORT / CAIRN_TEMPORAL_UI_PORT move the
 * embedded server, the banner says it is npm start's own, and Ctrl-C stops all of it. With a
 * Temporal server already on the port (the run's dev server), npm start uses it, the banner
 * names the process that runs it, and Ctrl-C leaves it running. Never the repository's `.data/`
 * folder or the default ports: everything lives in a temporary folder on free ports.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isServing } from '../../scripts/dev-server';
import { freePort } from '../../testkit/free-port';
import { waitUntil } from '../../testkit/wait-until';
import { runInfo } from '../harness/run-info';
import { uniqueId } from '../harness/test-env';

const ROOT = join(__dirname, '..', '..');

jest.setTimeout(180_000);

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let dir = '';
const running: Started[] = [];
const holders: { server: Server }[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-npm-start-'));
});

afterEach(async () => {
  // A failed test may leave npm start running: end its whole process group.
  for (const started of running.splice(0)) {
    const pgid = started.child.pid;
    if (pgid !== undefined && groupProcesses(pgid).length > 0) process.kill(-pgid, 'SIGKILL');
  }
  await Promise.all(holders.splice(0).map(({ server }) => new Promise((resolve) => server.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

/** `npm start` in the repository with only `env` (and PATH, HOME, the tools folder) set, in a process group of its own. */
function npmStart(env: Record<string, string>): Started {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...(process.env.CAIRN_TOOLS_DIR ? { CAIRN_TOOLS_DIR: process.env.CAIRN_TOOLS_DIR } : {}),
      CAIRN_TASK_QUEUE: uniqueId('npm-start-queue'),
      // Not the shared server's deployment: this process is no release.
      CAIRN_WORKER_VERSIONING: 'off',
      CAIRN_WORKSPACE: join(dir, 'workspace'),
      CAIRN_TEMPORAL_DATA_DIR: join(dir, 'temporal'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const started = { child, output: () => output, exited };
  running.push(started);
  return started;
}

/**
 * Every live process as `ps` lists it: pid, process group and command line. A zombie (state Z)
 * has ended and holds nothing but its pid until its new parent reaps it (tsx's esbuild helper
 * may linger so when tsx exits at once, in a container whose init reaps slowly): left out.
 */
function processes(): { pid: number; pgid: number; args: string }[] {
  return execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .flatMap((m) => (m && !m[3]?.startsWith('Z') ? [{ pid: Number(m[1]), pgid: Number(m[2]), args: m[4] ?? '' }] : []));
}

/** The processes of process group `pgid`. */
const groupProcesses = (pgid: number) => processes().filter((p) => p.pgid === pgid);

/** What npm start left running: its process group, and anything that names the test's folder (the dev server's data). */
function leftBehind(started: Started): string[] {
  const pgid = started.child.pid ?? -1;
  return processes()
    .filter((p) => p.pgid === pgid || p.args.includes(dir))
    .map((p) => `${p.pid} ${p.args}`);
}

/** What npm start itself said: its output without npm's `> cairn start` header and blank lines. */
const ownLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('> '));

/** Holds a free loopback port with a plain TCP server (no Temporal, no HTTP). */
async function holdPort(): Promise<number> {
  const port = await freePort();
  // Every connection is closed at once, so closing the server never waits for one.
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  holders.push({ server });
  return port;
}

/** Three free ports for the web page, Temporal gRPC and the Temporal UI. */
const freePorts = async () => ({ http: await freePort(), grpc: await freePort(), ui: await freePort() });

const portsEnv = (p: { http: number; grpc: number; ui: number }) => ({
  CAIRN_HTTP_PORT: String(p.http),
  CAIRN_TEMPORAL_PORT: String(p.grpc),
  CAIRN_TEMPORAL_UI_PORT: String(p.ui),
});

describe.each([
  ['CAIRN_HTTP_PORT', 'http'],
  ['CAIRN_TEMPORAL_PORT', 'grpc'],
  ['CAIRN_TEMPORAL_UI_PORT', 'ui'],
] as const)('with %s taken by something else', (variable, which) => {
  test('one line naming the port and its holder, a non-zero exit, nothing left running', async () => {
    const ports = { ...(await freePorts()), [which]: await holdPort() };
    const start = npmStart(portsEnv(ports));
    const { code } = await start.exited;
    const lines = ownLines(start.output());
    expect(lines).toEqual([expect.stringContaining(`port ${ports[which]} (${variable}`)]);
    // Who holds it: this test's own process.
    expect(lines[0]).toContain(`in use by pid ${process.pid} (`);
    if (which === 'grpc') expect(lines[0]).toContain('which is not a Temporal server');
    expect(lines[0]).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    // tsx's esbuild helper ends by itself once tsx has gone; anything else would stay for good.
    await waitUntil('nothing npm start started is running', () => leftBehind(start).length === 0, {
      timeoutMs: 10_000,
    }).catch(() => expect(leftBehind(start)).toEqual([]));
  });
});

test('CAIRN_TEMPORAL_PORT and CAIRN_TEMPORAL_UI_PORT move the embedded server; Ctrl-C stops all of it', async () => {
  const ports = await freePorts();
  const start = npmStart(portsEnv(ports));
  await waitUntil('npm start is running', () => start.output().includes('Cairn is running.'), { timeoutMs: 120_000 });
  const banner = start.output();
  const address = `127.0.0.1:${ports.grpc}`;
  expect(banner).toMatch(new RegExp(`Temporal: +${address} \\(namespace default\\): the dev server npm start runs`));
  expect(banner).toContain(`data in ${join(dir, 'temporal', 'temporal.db')}`);
  expect(banner).toMatch(new RegExp(`Temporal UI: +http://127\\.0\\.0\\.1:${ports.ui}\\n`));
  expect(banner).toMatch(/Temporal CLI: +\/\S+\/temporal /);
  expect(await isServing(address)).toBe(true);
  expect((await fetch(`http://127.0.0.1:${ports.ui}/`)).status).toBe(200);
  // The page links agents and steps to the moved UI.
  const page = await (await fetch(`http://127.0.0.1:${ports.http}/`)).text();
  expect(page).toContain(`content="http://127.0.0.1:${ports.ui}"`);
  expect(processes().some((p) => p.args.includes(`--port ${ports.grpc} --ui-port ${ports.ui}`))).toBe(true);

  const pgid = start.child.pid ?? 0;
  process.kill(-pgid, 'SIGINT');
  await waitUntil('everything npm start started has ended', () => leftBehind(start).length === 0, {
    timeoutMs: 60_000,
  });
  expect(await isServing(address)).toBe(false);
});

test('a Temporal server already on CAIRN_TEMPORAL_PORT is used, named in the banner, and left running', async () => {
  const shared = runInfo().temporalAddress;
  const grpc = Number(shared.slice(shared.lastIndexOf(':') + 1));
  const ports = { ...(await freePorts()), grpc };
  const start = npmStart(portsEnv(ports));
  await waitUntil('npm start is running', () => start.output().includes('Cairn is running.'), { timeoutMs: 120_000 });
  const banner = start.output();
  // Whose: the process that listens on the port, the run's dev server.
  const owner = new RegExp(
    `Temporal: +127\\.0\\.0\\.1:${grpc} \\(namespace default\\): a server npm start did not start, run by pid (\\d+) \\(([^\\n]*)`,
  ).exec(banner);
  expect(owner?.[2]).toContain('temporal server start-dev');
  const ownerPid = Number(owner?.[1]);
  expect(processes().find((p) => p.pid === ownerPid)?.args).toContain(`--port ${grpc}`);
  expect(banner).toContain('Ctrl-C leaves it running');
  expect(banner).not.toContain('Starting temporal');
  expect(leftBehind(start).some((line) => line.includes('temporal server start-dev'))).toBe(false);

  process.kill(-(start.child.pid ?? 0), 'SIGINT');
  await waitUntil('npm start has ended', () => leftBehind(start).length === 0, { timeoutMs: 60_000 });
  expect(await isServing(shared)).toBe(true);
  expect(processes().some((p) => p.pid === ownerPid)).toBe(true);
});
