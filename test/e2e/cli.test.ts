/**
 * The `cairn` CLI through the real bin script against a worker in this process and the scripted
 * LLM: `run` answering an ask, a plan check and a tool approval from scripted stdin (one JSON
 * answer per line), `ls`, `show`, `watch`, `answer`, `cancel`, and the exit codes (0 completed,
 * 1 failed, 3 cancelled). The interactive rendering is checked through a fake `Prompter`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentSummary } from '../../client/agents/agent-client';
import type { RunOutcome } from '../../client/agents/cli/drive-agent';
import type { Choice, Prompter } from '../../client/cli/prompter';
import { PromptingAnswers } from '../../client/agents/cli/prompting-answers';
import type { AgentEvent, AgentState } from '../../workflows/model/agent/agent-state';
import type { FormField, Interaction } from '../../workflows/model/interactions/interaction-types';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { runCairn, spawnCairn } from '../harness/cairn-cli';
import { startAgent, stateOf, waitForInteraction, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

/** Runs `cairn <args>` with `stdin` (closed after) and waits for it to exit. */
const cairn = runCairn;

/** One JSON answer per line, as `cairn run` reads them from a non-TTY stdin. */
const lines = (...answers: unknown[]) => answers.map((a) => JSON.stringify(a)).join('\n') + '\n';

function cliEnv(taskQueue: string, workspace: string): Record<string, string> {
  return { CAIRN_TASK_QUEUE: taskQueue, CAIRN_WORKSPACE: workspace };
}

test('run --ask --confirm-plan: answers an ask (after a rejection), confirms the plan, approves a write; ls and show see it', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cli-run-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const env = cliEnv(config.taskQueue, workspace);
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'query', prompt: 'Who is the audience?' }, 'ask-q'),
        planReply(plan([step('s1')])),
      ],
      'step:s1': [reply.toolCall('write_file', { path: 'brief.txt', content: 'for engineers' }, 'w1'), finish('ok')],
      summary: [reply.text('The brief is in brief.txt.')],
    }),
  );
  await withWorker(config, async () => {
    const stdin = lines({ text: '  ' }, { text: 'engineers' }, { decision: 'confirm' }, { decision: 'approve' });
    const run = await cairn(['run', 'Write a brief', '--ask', '--confirm-plan'], env, stdin);
    expect(run.stderr).toMatch(/i1: answer rejected: text: must not be empty/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/s1 started: Step s1/);
    expect(run.stdout).toMatch(/s1 write_file → ok/);
    expect(run.stdout).toMatch(/completed · \d+ tokens \(prompt \d+, completion \d+\)/);
    expect(run.stdout).toContain('The brief is in brief.txt.');
    const id = /agent (\S+) started/.exec(run.stdout)?.[1] ?? '';
    expect(readFileSync(agentFile(workspace, id, 'brief.txt'), 'utf8')).toBe('for engineers');

    expect(id).toMatch(/^agent-write-a-brief-/);
    const listed = await waitUntil('ls --json lists the completed agent', async () => {
      const ls = await cairn(['ls', '--json'], env);
      return (JSON.parse(ls.stdout) as AgentSummary[]).find((a) => a.id === id && a.phase === 'completed');
    });
    expect(listed).toMatchObject({ task: 'Write a brief', status: 'COMPLETED', awaitingInput: false });

    const show = await cairn(['show', id, '--json'], env);
    const state = JSON.parse(show.stdout) as AgentState;
    expect(state.interactions.map((i) => [i.kind, i.status, i.answer])).toEqual([
      ['ask.query', 'answered', { text: 'engineers' }],
      ['plan.check', 'answered', { decision: 'confirm' }],
      ['tool.approval', 'answered', expect.objectContaining({ decision: 'approve' })],
    ]);
    expect((await cairn(['show', id], env)).stdout).toMatch(/completed +\[s1\] Step s1 — ok/);
  });
});

test('run --json: a failed agent exits 1 and prints exactly one JSON object', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cli-fail-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [reply.error(400, 'bad request')] }));
  await withWorker(config, async () => {
    const run = await cairn(['run', 'Fail please', '--json'], cliEnv(config.taskQueue, workspace));
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const outcome = JSON.parse(run.stdout) as RunOutcome;
    expect(outcome.id).toMatch(/^agent-fail-please-/);
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/LLM_REJECTED/);
    expect(typeof outcome.usage.totalTokens).toBe('number');
  });
});

test('cancel while run waits at the plan check: the waiting question is dropped and run exits 3', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cli-cancel-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const env = cliEnv(config.taskQueue, workspace);
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1'), step('s2', ['s1'])]))] }));
  await withWorker(config, async () => {
    const run = spawnCairn(['run', 'Wait for me', '--confirm-plan', '--json'], env);
    const id = await waitUntil('run reports the agent id', () => /agent (\S+) started/.exec(run.output.stderr)?.[1]);
    await waitForInteraction(bed.client.workflow.getHandle(id), 'plan.check');
    const cancel = await cairn(['cancel', id], env);
    expect(cancel).toMatchObject({ code: 0, stdout: `cancellation of ${id} requested\n` });
    const result = await run.done;
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ id, status: 'cancelled' });
    run.input();
  });
});

test('answer by update (a rejection exits 1 naming the rule), then watch --json follows to the end', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cli-answer-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const env = cliEnv(config.taskQueue, workspace);
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'select', prompt: 'Tone?', options: ['formal', 'casual'] }, 'a'),
        planReply(plan([step('s1')])),
      ],
      'step:s1': [finish('done')],
      summary: [reply.text('final')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'Pick a tone', mode: { ask: true } });
    const select = await waitForInteraction(handle, 'ask.select');
    const refused = (answer: string) =>
      expectNothingChanged(
        () => stateOf(handle),
        bed.llm,
        select.id,
        () => cairn(['answer', handle.workflowId, select.id, answer], env),
      );
    const bad = await refused('{"values":["sarcastic"]}');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/"sarcastic" is not one of the options/);
    expect((await refused('{oops')).code).toBe(2);
    const good = await cairn(['answer', handle.workflowId, select.id, '{"values":["formal"]}', '--by', 'ann'], env);
    expect(good).toMatchObject({ code: 0, stdout: `answer to ${select.id} accepted\n` });

    const watch = await cairn(['watch', handle.workflowId, '--json'], env);
    expect(watch.code).toBe(0);
    const events = watch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AgentEvent);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['interaction.answered', 'step.started']));
    expect(events.at(-1)).toMatchObject({ type: 'agent.finished', message: 'completed' });
    expect((await cairn(['show', 'agent-nope'], env)).code).toBe(1);
  });
});

/** A Prompter that answers from a list and records what it was asked and shown. */
function fakePrompter(responses: unknown[]) {
  const asked: string[] = [];
  const shown: string[] = [];
  const checks: Record<string, (value: never) => true | string> = {};
  const next = <T>(message: string, validate?: (value: never) => true | string): Promise<T> => {
    asked.push(message);
    if (validate) checks[message] = validate;
    if (responses.length === 0) throw new Error(`no scripted response for "${message}"`);
    return Promise.resolve(responses.shift() as T);
  };
  const prompter: Prompter = {
    show: (text) => void shown.push(text),
    text: (message, options) => next(message, options?.validate),
    number: (message, options) => next(message, options?.validate),
    select: <T extends string>(message: string, _choices: Choice<T>[]) => next<T>(message),
    multiSelect: (message, _choices, options) => next(message, options?.validate),
    confirm: (message) => next(message),
    editor: (message) => next(message),
  };
  return { prompter, asked, shown, checks };
}

const at = { status: 'open' as const, createdAt: 0 };

test('the prompter: a form field by field (only rejected fields asked again), the plan list, an approval', async () => {
  const fields: FormField[] = [
    { key: 'title', label: 'Title', type: 'input', required: true, maxLength: 10 },
    { key: 'pages', label: 'Pages', type: 'number', required: true, min: 1, max: 20 },
    { key: 'draft', label: 'Draft?', type: 'boolean', required: false },
  ];
  const form: Interaction = { id: 'i1', kind: 'ask.form', prompt: 'Details', fields, ...at };
  const fake = fakePrompter(['Hi', 30, true, 3]);
  const answers = new PromptingAnswers(fake.prompter);
  expect(await answers.answer(form, {})).toEqual({ values: { title: 'Hi', pages: 30, draft: true } });
  expect(fake.checks['Title']?.('A very long title' as never)).toBe('must be at most 10 characters');
  expect(fake.checks['Title']?.('' as never)).toBe('required');
  expect(
    await answers.answer(form, { rejection: 'values.pages: must be at most 20', rejectedField: 'answer.values.pages' }),
  ).toEqual({
    values: { title: 'Hi', pages: 3, draft: true },
  });
  expect(fake.asked).toEqual(['Title', 'Pages', 'Draft? (optional)', 'Pages']);
  expect(fake.shown).toContain('✗ rejected: values.pages: must be at most 20');

  const check: Interaction = {
    id: 'i2',
    kind: 'plan.check',
    prompt: 'Check the plan',
    plan: plan([step('s1'), step('s2', ['s1'])]),
    revision: 1,
    ...at,
  };
  const planFake = fakePrompter(['revise', 'shorter please']);
  expect(await new PromptingAnswers(planFake.prompter).answer(check, {})).toEqual({
    decision: 'revise',
    feedback: 'shorter please',
  });
  expect(planFake.shown.join('\n')).toMatch(/ 1\. \[s1\] Step s1\n +Do s1\n 2\. \[s2\] Step s2 \(after s1\)/);

  const approval: Interaction = {
    id: 'i3',
    kind: 'tool.approval',
    prompt: 'Allow write_file?',
    tool: 'write_file',
    arguments: { path: 'a.txt', content: 'A' },
    digest: 'd1',
    ...at,
  };
  const approvalFake = fakePrompter(['reject', 'too risky']);
  expect(await new PromptingAnswers(approvalFake.prompter).answer(approval, {})).toEqual({
    decision: 'reject',
    digest: 'd1',
    reason: 'too risky',
  });
  expect(approvalFake.shown.join('\n')).toContain('path: a.txt');
});
