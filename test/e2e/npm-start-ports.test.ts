/**
 * `npm start` as a new user meets it, with each of its ports taken: the web page's
 * (CAIRN_HTTP_PORT), the embedded Temporal server's gRPC port (CAIRN_TEMPORAL_PORT) held by
 * something that is not Temporal, and its Web UI port (CAIRN_TEMPORAL_UI_PORT). Each is one line
 * naming the port, its variable and who holds it, a non-zero exit, and no process left behind
 * (read from `ps`). With the ports free, CAIRN_TEMPORAL_PORT / CAIRN_TEMPORAL_UI_PORT move the
 * embedded server, the banner says it is npm start's own, and Ctrl-C stops all of it. With a
 * Temporal server already on the port (the run's dev server), npm start uses it, the banner
 * names the process that runs it, and Ctrl-C leaves it running. With CAIRN_GRAPHS unset it
 * registers the example graphs. Never the repository's `.data/`
 * folder or the default ports: everything lives in a temporary folder on free ports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isServing } from '../../scripts/dev-server';
import { freePort } from '../../testkit/free-port';
import { waitUntil } from '../../testkit/wait-until';
import { runInfo } from '../harness/run-info';
import {
  freePorts,
  killGroup,
  leftBehind,
  npmStart as startIn,
  portsEnv,
  processes,
  type NpmStart,
} from '../harness/npm-start';

jest.setTimeout(180_000);

let dir = '';
const running: NpmStart[] = [];
const holders: { server: Server }[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-npm-start-'));
});

afterEach(async () => {
  // A failed test may leave npm start running: end its whole process group.
  for (const started of running.splice(0)) killGroup(started);
  await Promise.all(holders.splice(0).map(({ server }) => new Promise((resolve) => server.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

/** `npm start` in this test's folder, ended after the test if it is still running. */
function npmStart(env: Record<string, string>): NpmStart {
  const started = startIn(dir, env);
  running.push(started);
  return started;
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
  // CAIRN_GRAPHS unset: npm start registers the example graphs, and the page's picker lists them.
  expect(banner).toMatch(/Graphs: +review-loop, router \(CAIRN_GRAPHS\)/);
  const graphs = (await (await fetch(`http://127.0.0.1:${ports.http}/api/graphs`)).json()) as {
    graphs: { name: string }[];
  };
  expect(graphs.graphs.map((g) => g.name).sort()).toEqual(['review-loop', 'router']);
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
