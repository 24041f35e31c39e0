/**
 * An operator's prompt overrides (CAIRN_PROMPTS_FILE): the texts the worker read change what the
 * planner and the steps are told — seen in the scripted model's requests — and the state names
 * the templates in the operator's words; a bad file stops the worker before it starts, with one
 * line naming the file, the template and the variable.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf } from '../harness/agents';
import { recordHistory } from '../harness/histories';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { render } from '../../workflows/model/prompts/templates';

const dir = mkdtempSync(join(tmpdir(), 'cairn-prompts-it-'));
const promptsFile = join(dir, 'prompts.json');
writeFileSync(
  promptsFile,
  JSON.stringify({
    'planner.system': 'HOUSE PLANNER. Plan in JSON. {{ask_rule}}\nTools:\n{{tools}}',
    'step.system': 'HOUSE EXECUTOR. Finish with finish_step.\nTools:\n{{tools}}',
  }),
);
const bed = agentTestbed({ CAIRN_PROMPTS_FILE: promptsFile });

/** The system message of the first request from `caller` (a purpose, or `step:<id>`). */
function systemOf(caller: string): string {
  const request = bed.llm.requests.find(
    (r) => (r.headers['x-cairn-step'] ? `step:${r.headers['x-cairn-step']}` : r.headers['x-cairn-purpose']) === caller,
  );
  const first = request?.body.messages[0];
  if (!first || first.role !== 'system' || typeof first.content !== 'string')
    throw new Error(`no system message from ${caller}`);
  return first.content;
}

test("the operator's texts reach the planner and the steps, and the state names them", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('one')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'a task' });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
    expect(systemOf('plan')).toMatch(/^HOUSE PLANNER\. Plan in JSON\. /);
    expect(systemOf('plan')).toContain(render('planner.cannot_ask'));
    expect(systemOf('step:s1')).toMatch(/^HOUSE EXECUTOR\. Finish with finish_step\.\nTools:\n/);
    // A template the file leaves out keeps its built-in words.
    const summary = bed.llm.requests.find((r) => r.headers['x-cairn-purpose'] === 'summary');
    expect(JSON.stringify(summary?.body.messages)).toContain('Write the final answer to the task below');
    expect((await stateOf(handle)).prompts).toEqual({ overridden: ['planner.system', 'step.system'] });
    await recordHistory('agent-prompts-at-once', handle);
  });
});

test('a bad prompts file stops the worker before it starts, with one line', async () => {
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ 'step.system': 'Do it. {{tools}} {{task}}' }));
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['worker/main.ts'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CAIRN_PROMPTS_FILE: bad },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(2);
  const lines = output.split('\n').filter((l) => l.trim() !== '');
  const named = lines.filter((l) => l.includes('CAIRN_PROMPTS_FILE'));
  expect(named).toHaveLength(1);
  expect(named[0]).toContain(bad);
  expect(named[0]).toContain('"step.system" has no variable {{task}}');
  expect(output).not.toMatch(/\n\s+at /); // no stack trace
  expect(output).not.toMatch(/^Worker on task queue/m); // it never started
}, 60_000);
