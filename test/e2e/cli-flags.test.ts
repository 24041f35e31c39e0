/**
 * `cairn` flags no other test drives, through the real bin script: `run --no-plan` (plain
 * ReAct: no planner call, one step on the whole task), `answer --signal` (fire-and-forget: a
 * bad answer is not refused at the prompt but recorded as rejected by the agent, changing
 * nothing; a good one is applied), `ls --waiting` (only agents waiting for a person), and the
 * agent-option flags of `run` (model, system prompt, tools, limits, on-step-failure): what the
 * started workflow got and what the model was sent; a bad value exits 2 before anything starts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentSummary } from '../../client/agents/agent-client';
import type { RunOutcome } from '../../client/agents/cli/drive-agent';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { runCairn } from '../harness/cairn-cli';
import { startedInput } from '../harness/started-input';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

function cliSetup() {
  const workspace = mkdtempSync(join(tmpdir(), 'cli-flags-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  return { config, env: { CAIRN_TASK_QUEUE: config.taskQueue, CAIRN_WORKSPACE: workspace } };
}

test('run --no-plan: one step on the whole task, no planner call, the step result is the answer', async () => {
  const { config, env } = cliSetup();
  bed.llm.respondWith(byRoute({ 'step:task': [finish('the direct answer')] }));
  await withWorker(config, async () => {
    const run = await runCairn(['run', 'Answer directly', '--no-plan', '--json'], env);
    expect(run.code).toBe(0);
    const outcome = JSON.parse(run.stdout) as RunOutcome;
    expect(outcome).toMatchObject({ status: 'completed', answer: 'the direct answer' });
    expect(bed.llm.requestsFor('plan')).toHaveLength(0);
    expect(bed.llm.requests.map((r) => r.headers['x-cairn-step'])).toEqual(['task']);
    const state = await stateOf(bed.client.workflow.getHandle(outcome.id));
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([['task', 'completed']]);
  });
});

test('answer --signal: a bad answer is sent, rejected by the agent and changes nothing; a good one is applied', async () => {
  const { config, env } = cliSetup();
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'select', prompt: 'Tone?', options: ['formal', 'casual'] }),
        planReply(plan([step('s1')])),
      ],
      'step:s1': [finish('done')],
      summary: [reply.text('final')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'Pick a tone', mode: { ask: true } });
    const select = await waitForInteraction(handle, 'ask.select');
    const id = handle.workflowId;

    const bad = await runCairn(['answer', id, select.id, '{"values":["sarcastic"]}', '--signal'], env);
    expect(bad).toMatchObject({ code: 0, stdout: `answer to ${select.id} sent\n` });
    const afterBad = await waitForState(handle, 'the agent recorded the rejection', (s) =>
      s.events.some((e) => e.type === 'answer.rejected'),
    );
    expect(afterBad.events.find((e) => e.type === 'answer.rejected')?.message).toMatch(/not one of the options/);
    expect(afterBad.interactions).toEqual([expect.objectContaining({ id: select.id, status: 'open' })]);

    const good = await runCairn(['answer', id, select.id, '{"values":["formal"]}', '--signal', '--by', 'ann'], env);
    expect(good).toMatchObject({ code: 0, stdout: `answer to ${select.id} sent\n` });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'final' });
    const state = await stateOf(handle);
    expect(state.interactions).toEqual([
      expect.objectContaining({ id: select.id, status: 'answered', by: 'ann', answer: { values: ['formal'] } }),
    ]);
    // Both went as signals: the history has two `answer` signals and no update.
    const events = (await handle.fetchHistory()).events ?? [];
    const signals = events.flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []);
    expect(signals.filter((name) => name === 'answer')).toHaveLength(2);
    expect(events.some((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toBe(false);
  });
});

test('ls --waiting lists the agent waiting for a person and not the finished one', async () => {
  const { config, env } = cliSetup();
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('s1')]))],
      'step:s1': [finish('one'), finish('two')],
      summary: [reply.text('a'), reply.text('b')],
    }),
  );
  await withWorker(config, async () => {
    const waiting = await startAgent(bed.client, config, { task: 'Needs a person', mode: { confirmPlan: true } });
    const done = await startAgent(bed.client, config, { task: 'Needs nobody' });
    await done.result();
    const check = await waitForInteraction(waiting, 'plan.check');
    const ours = (agents: AgentSummary[]) =>
      agents.filter((a) => [waiting.workflowId, done.workflowId].includes(a.id)).map((a) => a.id);

    // Visibility catches up asynchronously: wait until plain ls sees both in their final phases.
    await waitUntil('ls sees both agents settled', async () => {
      const all = JSON.parse((await runCairn(['ls', '--json'], env)).stdout) as AgentSummary[];
      const phases = Object.fromEntries(all.map((a) => [a.id, a.phase]));
      return phases[waiting.workflowId] === 'awaiting_input' && phases[done.workflowId] === 'completed';
    });
    const listed = await runCairn(['ls', '--waiting', '--json'], env);
    expect(listed.code).toBe(0);
    const agents = JSON.parse(listed.stdout) as AgentSummary[];
    expect(ours(agents)).toEqual([waiting.workflowId]);
    expect(agents.every((a) => a.awaitingInput)).toBe(true);
    const text = await runCairn(['ls', '--waiting'], env);
    expect(text.stdout).toContain(waiting.workflowId);
    expect(text.stdout).not.toContain(done.workflowId);

    await answer(waiting, check.id, { decision: 'confirm' });
    await waiting.result();
  });
});

test('run with agent options: the workflow starts with them and the model is called with them', async () => {
  const { config, env } = cliSetup();
  bed.llm.respondWith(byRoute({ 'step:task': [finish('terse answer')] }));
  await withWorker(config, async () => {
    const run = await runCairn(
      [
        'run',
        'Answer directly',
        '--no-plan',
        '--json',
        '--model',
        'custom-model',
        '--system-prompt',
        'You answer in five words.',
        '--tools',
        'read_file',
        '--max-step-rounds',
        '3',
        '--deadline',
        '10m',
        '--on-step-failure',
        'continue',
      ],
      env,
    );
    expect(run.code).toBe(0);
    const outcome = JSON.parse(run.stdout) as RunOutcome;
    expect(outcome).toMatchObject({ status: 'completed', answer: 'terse answer' });
    expect(await startedInput(bed.client, outcome.id)).toMatchObject({
      model: { name: 'custom-model' },
      systemPrompt: 'You answer in five words.',
      tools: ['read_file'],
      limits: { maxStepRounds: 3, deadlineMs: 600_000 },
      onStepFailure: 'continue',
    });
    const [call] = bed.llm.requests;
    expect(call?.body.model).toBe('custom-model');
    expect(JSON.stringify(call?.body.messages)).toContain('You answer in five words.');
    const offered = (call?.body.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : t.type));
    expect(offered).toContain('read_file');
    expect(offered).not.toContain('list_files');
  });
});

test('run with a bad option value: exit 2, one line naming the flag and field, nothing started', async () => {
  const { env } = cliSetup();
  const run = await runCairn(['run', 'Anything', '--max-parallel', '0'], env);
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain('--max-parallel: limits.maxParallelSteps:');
  expect(run.stdout).not.toContain('started');
  expect(bed.llm.requests).toHaveLength(0);
});
