/**
 * A worker started against a namespace that lacks Cairn's search attributes — a dev server set
 * up for release 0.2.0, which had only AgentPhase and AgentAwaitingInput — refuses to start with
 * one line naming the missing ones and the command that registers them, instead of starting and
 * leaving every agent's workflow task failing forever. After `npm run setup-cluster` it starts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer, type DevServer } from '../../scripts/dev-server';
import { lowFreePort } from '../../testkit/low-port';
import { runInfo } from '../harness/run-info';

const ROOT = join(__dirname, '..', '..');
let server: DevServer | undefined;

beforeAll(async () => {
  server = await startDevServer({
    cli: runInfo().temporalCli,
    dbFile: join(mkdtempSync(join(tmpdir(), 'cairn-old-namespace-')), 'temporal.db'),
    port: await lowFreePort(),
    searchAttributes: { AgentPhase: 'Keyword', AgentAwaitingInput: 'Bool' },
  });
}, 60_000);
afterAll(async () => server?.stop());

/** Runs `npm run <script>` against the test's server until it exits (or `untilOutput` shows, then stops it). */
function npmRun(script: string, untilOutput?: RegExp): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TEMPORAL_ADDRESS: server?.address ?? '',
      CAIRN_TASK_QUEUE: 'old-namespace',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    if (untilOutput?.test(output) && child.pid) process.kill(-child.pid, 'SIGINT');
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

test('a worker refuses a namespace without AgentTokens and AgentCostUsd, saying how to register them', async () => {
  const refused = await npmRun('worker');
  expect(refused.code).toBe(1);
  const lines = refused.output.split('\n').filter((l) => l.includes('search attributes'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^Namespace "default" lacks Cairn's search attributes /);
  expect(lines[0]).toContain('AgentTokens (INT)');
  expect(lines[0]).toContain('AgentCostUsd (DOUBLE)');
  expect(lines[0]).not.toContain('AgentPhase');
  expect(lines[0]).toContain('`npm run setup-cluster`');
  expect(refused.output).not.toMatch(/\n\s+at /); // one line, no stack trace

  const setup = await npmRun('setup-cluster');
  expect(setup.output).toMatch(/Registered (AgentTokens, AgentCostUsd|AgentCostUsd, AgentTokens) in namespace default/);
  expect(setup.code).toBe(0);
  const started = await npmRun('worker', /Worker on task queue "old-namespace"/);
  expect(started.output).toContain('Worker on task queue "old-namespace"');
  expect(started.output).not.toContain('lacks');
}, 180_000);
