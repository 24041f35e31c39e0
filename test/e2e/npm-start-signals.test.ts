/**
 * `npm start` and its signals, as a new user meets them: Ctrl-C (SIGINT to its process group, as
 * a terminal sends it) ends all of it within seconds even while a page holds a conversation's
 * live stream open, and leaves no process behind; SIGHUP to the process the banner names reloads
 * the approval policy, as the worker's does (docs/operations.md#approval-policies), and the
 * process runs on until Ctrl-C. Its terminal shows Cairn's own lines: the dev server's output
 * and the codec audit go to the log file its banner names. Everything in a temporary folder on
 * free ports.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../../testkit/wait-until';
import { freePorts, killGroup, leftBehind, npmStart, portsEnv, type NpmStart } from '../harness/npm-start';

jest.setTimeout(180_000);

/** Far more than a clean stop takes, far less than the minutes a held stream kept it running. */
const STOPS_WITHIN_MS = 5_000;
const POLICY =
  '@id("src-free") permit (principal, action, resource) when { context has path && context.path like "src/*" };';

let dir = '';
const running: NpmStart[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-npm-signals-'));
});

afterEach(() => {
  for (const started of running.splice(0)) killGroup(started);
  rmSync(dir, { recursive: true, force: true });
});

/** npm start on free ports, once its banner is out. */
async function started(env: Record<string, string> = {}) {
  const ports = await freePorts();
  const start = npmStart(dir, { ...portsEnv(ports), ...env });
  running.push(start);
  await waitUntil('npm start is running', () => start.output().includes('Cairn is running.'), { timeoutMs: 120_000 });
  return { start, api: `http://127.0.0.1:${ports.http}` };
}

/** SIGINT to the whole process group, as Ctrl-C in a terminal sends it; resolves with how long it took to end. */
async function interrupt(start: NpmStart): Promise<number> {
  const at = Date.now();
  process.kill(-(start.child.pid ?? 0), 'SIGINT');
  await waitUntil('everything npm start started has ended', () => leftBehind(start).length === 0, {
    timeoutMs: 60_000,
  });
  return Date.now() - at;
}

test('Ctrl-C ends npm start within seconds while a conversation page holds its live stream open, leaving nothing running', async () => {
  const { start, api } = await started();
  const opened = await fetch(`${api}/api/threads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ thread: { name: 'Hold the stream open' } }),
  });
  expect(opened.status).toBe(201);
  const { id } = (await opened.json()) as { id: string };
  // A page left open: the thread has answered a read (its first workflow task is done).
  expect((await fetch(`${api}/api/threads/${encodeURIComponent(id)}`)).status).toBe(200);
  // The page's live stream: open, answered 200, and read (its heartbeats) until the server ends it.
  const stream = await fetch(`${api}/api/threads/${encodeURIComponent(id)}/stream`);
  expect(stream.status).toBe(200);
  const reading = (async () => {
    const reader = stream.body?.getReader();
    try {
      while (reader && !(await reader.read()).done);
    } catch {
      // The server closed the connection under the reader: the stream has ended all the same.
    }
  })();

  const took = await interrupt(start);
  // Slower: what it printed while it stopped says where the time went.
  if (took >= STOPS_WITHIN_MS)
    expect(start.output().split('\n').slice(-30)).toEqual([`ended within ${STOPS_WITHIN_MS} ms`]);
  await reading;
});

test('SIGHUP to the process the banner names reloads the approval policy and npm start runs on; Ctrl-C ends it', async () => {
  const file = join(dir, 'policy.cedar');
  writeFileSync(file, POLICY.replace('src-free', 'docs-free').replace('src/*', 'docs/*'));
  const { start, api } = await started({ CAIRN_POLICY_FILE: file });
  const named = /kill -HUP (\d+)/.exec(start.output());
  expect(named).not.toBeNull();
  const pid = Number(named?.[1]);

  writeFileSync(file, POLICY);
  process.kill(pid, 'SIGHUP');
  await waitUntil('the reload is logged', () => start.output().includes('SIGHUP: approval policy reloaded from'), {
    timeoutMs: 30_000,
  });
  expect(start.output()).toContain(`SIGHUP: approval policy reloaded from ${file} (src-free)`);
  // Still serving, the process and its dev server alive.
  expect((await fetch(`${api}/healthz`)).status).toBe(200);
  expect(start.child.exitCode).toBeNull();

  const took = await interrupt(start);
  if (took >= STOPS_WITHIN_MS)
    expect(start.output().split('\n').slice(-30)).toEqual([`ended within ${STOPS_WITHIN_MS} ms`]);
});

test("the terminal shows Cairn's own lines: the dev server's output and the codec audit go to the log file the banner names", async () => {
  const { start, api } = await started();
  const named = /^ {2}Log: +(\S+) /m.exec(start.output());
  expect(named?.[1]).toBe(join(dir, 'temporal', 'npm-start.log'));
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const decoded = await fetch(`${api}/codec/decode`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-namespace': 'default' },
    body: JSON.stringify({ payloads: [{ metadata: { encoding: b64('json/plain') }, data: b64('"hello"') }] }),
  });
  expect(decoded.status).toBe(200);
  await interrupt(start);

  const logged = readFileSync(named?.[1] ?? '', 'utf8');
  expect(logged).toContain('"audit":"codec.decode"');
  // The dev server's warnings as it stopped (its workers losing their server) are there too.
  expect(logged).toMatch(/level=WARN/);
  const terminal = start.output();
  expect(terminal).not.toContain('codec.decode');
  expect(terminal).not.toMatch(/level=(WARN|INFO|ERROR)/);
});
