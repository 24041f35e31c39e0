/**
 * The real-model suite (`npm run test:real-model`) demands evidence: run as CI runs it, but
 * against a stand-in model that never calls a tool (REAL_MODEL_ORIGIN at the scripted fake:
 * plans are valid, steps answer in plain text), nothing breaks — and the suite still refuses to
 * pass: it says INCONCLUSIVE, names what it never saw, and exits non-zero.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { plan, planReply, step } from '../harness/plans';

const ROOT = join(__dirname, '..', '..');

let fake: ScriptedLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Runs the suite to its end; its exit code and everything it printed. */
function runSuite(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn('npx', ['tsx', 'real-model/run.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

test('a model that never calls a tool leaves the real-model suite INCONCLUSIVE and non-zero', async () => {
  fake = await ScriptedLlm.start();
  fake.respondWith((request) =>
    request.headers['x-cairn-purpose'] === 'plan'
      ? planReply(plan([step('s1')]))
      : reply.text('Alice owns the changelog.'),
  );
  const { code, output } = await runSuite({
    REAL_MODEL_ORIGIN: fake.baseUrl.replace(/\/v1$/, ''),
    REAL_MODEL_NAME: 'scripted',
    REAL_MODEL_AGENTS: 'react,list-read',
  });
  expect(output).toContain('no violations');
  expect(output).toMatch(/NOT SEEN {2}tool calls ran and did their work: 0 tool runs completed/);
  expect(output).toMatch(/seen {4} {2}a planner's structured-output reply was parsed into a plan/);
  expect(output).toMatch(/real-model suite: INCONCLUSIVE \(nothing broke, but not every mechanism was exercised\)/);
  expect(code).toBe(1);
  // The model was really asked: a plan for the planning agent, and step calls for both.
  expect(fake.requestsFor('plan').length).toBeGreaterThan(0);
  expect(fake.requestsFor('step').length).toBeGreaterThan(0);
}, 240_000);
