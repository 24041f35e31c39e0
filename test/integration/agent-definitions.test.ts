/**
 * Starting an agent from a definition (docs/definitions.md) through `POST /api/agents`, against
 * the real dev server and a worker over the scripted fake: the definition's instructions reach
 * the planner and the steps as their system prompt, only its tools are offered to the steps, the
 * agent's start input carries its snapshot (name, version, content) and its memo names it. A
 * start that names no known definition, or asks what the definition does not allow, is a 400
 * naming the field and starts nothing. The catalogue (`GET /api/agent-definitions`) and the
 * door's `GET /v1/models` (through the official `openai` client) list the definitions. A thread
 * bound to a definition — opened with `POST /api/threads { definition }`, or by the door with
 * `model: "<definition>"` — gives its instructions to its chat replies and its task turns, its
 * tools to the turns' steps, and its snapshot to each turn's agent; a model no definition has is
 * OpenAI's 404 `model_not_found`.
 */
import { join } from 'node:path';
import OpenAI from 'openai';
import { AgentClient } from '../../client/agents/agent-client';
import { createDefinitionRegistry, type DefinitionRegistry } from '../../client/definitions/definition-registry';
import { loadDefinitionRegistry } from '../../client/definitions/load-definitions';
import { agentDefinitionSchema } from '../../client/definitions/definition-schema';
import { ThreadClient } from '../../client/threads/thread-client';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../../client/unanswered-query';
import { EMPTY_GRAPH_REGISTRY } from '../../client/graphs/graph-registry';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { appOver, postJson } from '../harness/http-app';
import { finish, plan, planReply, step } from '../harness/plans';
import { serveOnLoopback } from '../harness/sse-client';
import { startedInput } from '../harness/started-input';
import { testConfig, uniqueId, withWorker } from '../harness/test-env';
import { ScriptedLlm } from '../fake-llm/scripted-llm';

const bed = agentTestbed();
const ROOT = join(__dirname, '..', '..');
let registry: DefinitionRegistry;

beforeAll(async () => {
  registry = await loadDefinitionRegistry('examples/agents/index.ts', ROOT);
});

function agents(definitions: DefinitionRegistry = registry): AgentClient {
  return new AgentClient(
    bed.client,
    bed.config.taskQueue,
    true,
    DEFAULT_QUERY_TIMEOUT_MS,
    EMPTY_GRAPH_REGISTRY,
    definitions,
  );
}

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

/** The names of the tools the first request of step `id` offered the model. */
function stepTools(id: string): string[] {
  const request = bed.llm.requests.find((r) => r.headers['x-cairn-step'] === id);
  return (request?.body.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : t.type));
}

test('POST /api/agents { definition }: its instructions and tools reach the model; the input carries its snapshot', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('the handbook says: 30 days')],
      summary: [reply.text('You can return it within 30 days.')],
    }),
  );
  const support = registry.get('support');
  if (!support) throw new Error('examples/agents has no support definition');
  const instructions = support.definition.instructions ?? '';
  await withWorker(bed.config, async () => {
    const app = appOver(agents());
    const res = await postJson(app, '/api/agents', {
      definition: 'support',
      task: 'How long do I have to return a parcel?',
      systemPrompt: 'The customer is called Ada.',
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const handle = bed.client.workflow.getHandle(id);
    expect(await handle.result()).toMatchObject({ status: 'completed' });

    // The definition's instructions, then the start's own prompt, in the planner's and the step's system prompts.
    expect(systemOf('plan')).toContain(`${instructions}\n\nThe customer is called Ada.`);
    expect(systemOf('step:s1')).toContain(instructions);
    // The language it answers in, told to the planner and the step (support: en).
    expect(systemOf('plan')).toContain('Write every answer in this language: en.');
    expect(systemOf('step:s1')).toContain('Write every answer in this language: en.');
    // Only the definition's tools (and the step's own built-ins), never the others the worker has.
    const offered = stepTools('s1');
    expect(offered).toEqual(expect.arrayContaining(['read_file', 'list_files']));
    expect(offered).not.toContain('write_file');
    expect(offered).not.toContain('http_fetch');

    // The snapshot in the start input (the history), the name and version in the memo and the list.
    const input = (await startedInput(bed.client, id)) as Record<string, unknown>;
    expect(input.definition).toEqual(support.snapshot);
    expect(input.tools).toEqual(['read_file', 'list_files']);
    expect(input.mode).toEqual({ ask: true });
    expect(input.limits).toEqual({ maxReplans: 1, maxParallelSteps: 2 });
    const memo = (await handle.describe()).memo;
    expect(memo).toMatchObject({ definition: 'support', definitionVersion: support.snapshot.version });
  });
});

test('a definition changed while an agent of it waits: that agent keeps its snapshot (input and state), a new one gets the new version', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('s1')]))],
      'step:s1': [finish('30 days'), finish('30 days')],
      summary: [reply.text('Within 30 days.'), reply.text('Within 30 days.')],
    }),
  );
  const support = registry.get('support');
  if (!support) throw new Error('examples/agents has no support definition');
  const changedInstructions = 'You are the support agent, second edition: answer in one sentence.';
  const changed = createDefinitionRegistry([{ ...support.definition, instructions: changedInstructions }]).get(
    'support',
  );
  if (!changed) throw new Error('the changed registry lost support');
  expect(changed.snapshot.version).not.toBe(support.snapshot.version);
  const task = { task: 'How long do I have to return a parcel?' };
  // Started before the change, run after it: no worker takes it until both have started.
  const before = await agents().start({ ...task, definition: 'support' });
  const after = await agents(createDefinitionRegistry([changed.definition])).start({ ...task, definition: 'support' });
  await withWorker(bed.config, async () => {
    for (const id of [before, after])
      expect(await bed.client.workflow.getHandle(id).result()).toMatchObject({ status: 'completed' });
    const stateOf = (id: string) => agents().state(id, 0);
    expect((await stateOf(before)).definition).toEqual({
      name: 'support',
      version: support.snapshot.version,
      label: 'handbook v1',
    });
    expect((await stateOf(after)).definition).toMatchObject({ name: 'support', version: changed.snapshot.version });
  });
  expect(((await startedInput(bed.client, before)) as Record<string, unknown>).definition).toEqual(support.snapshot);
  expect(((await startedInput(bed.client, after)) as Record<string, unknown>).definition).toEqual(changed.snapshot);
  // Each agent's planner had its own version's instructions.
  const planSystem = (id: string) =>
    bed.llm.requests.find((r) => r.headers['x-cairn-purpose'] === 'plan' && r.headers['x-cairn-agent'] === id)?.body
      .messages[0]?.content;
  expect(planSystem(before)).toContain(support.definition.instructions ?? 'missing');
  expect(planSystem(before)).not.toContain(changedInstructions);
  expect(planSystem(after)).toContain(changedInstructions);
});

test("a definition's model, per-stage parameters and templates reach each stage's requests: temperature, top_p, stop, tool_choice, its step prompt", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('done')],
      summary: [reply.text('Done.')],
    }),
  );
  const tuned = createDefinitionRegistry([
    agentDefinitionSchema.parse({
      name: 'tuned',
      description: 'A definition whose stages are tuned apart.',
      model: {
        name: 'base-model',
        temperature: 0.7,
        stop: ['<END>'],
        stages: {
          plan: { name: 'planner-model', temperature: 0.1 },
          step: { toolChoice: 'required', topP: 0.5 },
          summary: { stop: ['###'], maxTokens: 300 },
        },
      },
      prompts: { templates: { 'step.system': 'TUNED STEP RULES. Your tools: {{tools}}' } },
    }),
  ]);
  const id = await agents(tuned).start({ task: 'Tune the stages', definition: 'tuned' });
  await withWorker(bed.config, async () => {
    expect(await bed.client.workflow.getHandle(id).result()).toMatchObject({ status: 'completed' });
    // The state names the template its definition replaced.
    expect((await agents(tuned).state(id, 0)).prompts).toEqual({ overridden: ['step.system'] });
  });
  const body = (caller: string) => {
    const request = bed.llm.requests.find(
      (r) =>
        (r.headers['x-cairn-step'] ? `step:${r.headers['x-cairn-step']}` : r.headers['x-cairn-purpose']) === caller,
    );
    if (!request) throw new Error(`no ${caller} request`);
    return request.body as unknown as Record<string, unknown>;
  };
  // The planner: its stage's model and temperature over the definition's, the shared stop; no tools, no tool_choice.
  expect(body('plan')).toMatchObject({ model: 'planner-model', temperature: 0.1, stop: ['<END>'] });
  expect(body('plan').tool_choice).toBeUndefined();
  // A step: the definition's model and temperature, its stage's top_p and tool_choice beside its tools.
  expect(body('step:s1')).toMatchObject({
    model: 'base-model',
    temperature: 0.7,
    top_p: 0.5,
    stop: ['<END>'],
    tool_choice: 'required',
  });
  expect(body('step:s1').tools).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'function' })]));
  // The summary: its own stop sequences and reply budget.
  expect(body('summary')).toMatchObject({ model: 'base-model', temperature: 0.7, stop: ['###'], max_tokens: 300 });
  // Its template replaced the built-in step prompt.
  expect(systemOf('step:s1')).toMatch(/^TUNED STEP RULES\. Your tools: /);
});

test("two definitions on one worker, two named endpoints: each fake sees only its own agent's calls, with its model, key, instructions and tools", async () => {
  const second = await ScriptedLlm.start();
  try {
    const script = () =>
      byRoute({
        plan: [planReply(plan([step('s1')]))],
        'step:s1': [finish('done')],
        summary: [reply.text('Done.')],
      });
    bed.llm.respondWith(script());
    second.respondWith(script());
    const config = testConfig(bed.llm, {
      CAIRN_TASK_QUEUE: bed.config.taskQueue,
      CAIRN_LLM_ENDPOINTS: JSON.stringify([
        { name: 'second', baseUrl: second.baseUrl, model: 'second-default', apiKeyEnv: 'SECOND_LLM_KEY' },
      ]),
      SECOND_LLM_KEY: 'sk-second-endpoint',
    });
    const both = createDefinitionRegistry([
      agentDefinitionSchema.parse({
        name: 'alpha',
        description: 'On the default endpoint.',
        instructions: 'You are ALPHA.',
        tools: ['read_file'],
      }),
      agentDefinitionSchema.parse({
        name: 'beta',
        description: 'On the second endpoint.',
        instructions: 'You are BETA.',
        tools: ['list_files'],
        model: { endpoint: 'second', name: 'beta-model' },
      }),
    ]);
    const alpha = await agents(both).start({ task: 'Work as alpha', definition: 'alpha' });
    const beta = await agents(both).start({ task: 'Work as beta', definition: 'beta' });
    await withWorker(config, async () => {
      for (const id of [alpha, beta])
        expect(await bed.client.workflow.getHandle(id).result()).toMatchObject({ status: 'completed' });
    });
    // Each endpoint's fake heard only its own agent, all three stages of it.
    const callers = (llm: ScriptedLlm) => [...new Set(llm.requests.map((r) => r.headers['x-cairn-agent']))];
    expect(callers(bed.llm)).toEqual([alpha]);
    expect(callers(second)).toEqual([beta]);
    const purposes = (llm: ScriptedLlm) => llm.requests.map((r) => r.headers['x-cairn-purpose']).sort();
    expect(purposes(second)).toEqual(['plan', 'step', 'summary']);
    // Its model, its key; its instructions and only its tools.
    expect(second.requests.map((r) => r.body.model)).toEqual(['beta-model', 'beta-model', 'beta-model']);
    expect(second.requests.every((r) => r.headers.authorization === 'Bearer sk-second-endpoint')).toBe(true);
    expect(bed.llm.requests.every((r) => r.body.model === 'scripted-model')).toBe(true);
    const firstSystem = (llm: ScriptedLlm) => JSON.stringify(llm.requests[0]?.body.messages[0]);
    expect(firstSystem(second)).toContain('You are BETA.');
    expect(firstSystem(bed.llm)).toContain('You are ALPHA.');
    const stepTools = (llm: ScriptedLlm) =>
      (llm.requests.find((r) => r.headers['x-cairn-step'] === 's1')?.body.tools ?? []).map((t) =>
        t.type === 'function' ? t.function.name : t.type,
      );
    expect(stepTools(second)).toContain('list_files');
    expect(stepTools(second)).not.toContain('read_file');
    expect(stepTools(bed.llm)).toContain('read_file');
    expect(stepTools(bed.llm)).not.toContain('list_files');
  } finally {
    await second.close();
  }
});

test('a start the definition does not allow is a 400 naming the field, and nothing starts', async () => {
  const app = appOver(agents());
  const before = await listed();
  const cases: [Record<string, unknown>, string][] = [
    [{ definition: 'no-such-agent', task: 'Anything' }, 'definition'],
    [{ definition: 'support', definitionVersion: '0'.repeat(64), task: 'Anything' }, 'definitionVersion'],
    [{ definition: 'support', task: 'Anything', tools: ['write_file'] }, 'tools'],
    [{ definition: 'support', task: 'Anything', limits: { maxParallelSteps: 3 } }, 'limits.maxParallelSteps'],
    [{ definition: 'research', task: 'Anything', model: { name: 'big' } }, 'model'],
    [{ definition: { name: 'support', version: 'x', content: {} }, task: 'Anything' }, 'definition'],
  ];
  for (const [body, field] of cases) {
    const res = await postJson(app, '/api/agents', body);
    const { error } = (await res.json()) as { error: { code: string; field?: string; message: string } };
    expect({ status: res.status, code: error.code, field: error.field }).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      field,
    });
  }
  const res = await postJson(app, '/api/agents', { definition: 'no-such-agent', task: 'Anything' });
  expect(((await res.json()) as { error: { message: string } }).error.message).toContain('"no-such-agent"');
  expect(await listed()).toEqual(before);
});

/** The ids of the agents on this test's task queue's namespace started by this file. */
async function listed(): Promise<string[]> {
  const ids: string[] = [];
  for await (const wf of bed.client.workflow.list({ query: `TaskQueue = '${bed.config.taskQueue}'` }))
    ids.push(wf.workflowId);
  return ids;
}

test('the catalogue and the door list the definitions; one definition comes with its content', async () => {
  const threads = new ThreadClient(bed.client, bed.config.taskQueue);
  const app = appOver(agents(), { threads });
  const res = await app.request('/api/agent-definitions');
  expect(res.status).toBe(200);
  const { definitions } = (await res.json()) as { definitions: { name: string; version: string }[] };
  expect(definitions.map((d) => d.name)).toEqual(['support', 'research', 'cairn']);
  expect(definitions.map((d) => d.version)).toEqual(registry.list().map((r) => r.snapshot.version));

  const one = await app.request('/api/agent-definitions/research');
  expect(one.status).toBe(200);
  expect(await one.json()).toMatchObject({ name: 'research', content: registry.get('research')?.snapshot.content });
  const missing = await app.request(`/api/agent-definitions/${uniqueId('none')}`);
  expect(missing.status).toBe(404);
  expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');

  const server = await serveOnLoopback(app);
  try {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const models = [];
    for await (const model of openai.models.list()) models.push(model.id);
    expect(models).toEqual(['support', 'research', 'cairn']);
  } finally {
    await server.close();
  }
});

/** The thread client over this file's registry, and the app over both. */
function threadApp() {
  const threads = new ThreadClient(bed.client, bed.config.taskQueue, true, DEFAULT_QUERY_TIMEOUT_MS, {}, registry);
  return { threads, app: appOver(agents(), { threads }) };
}

test('a thread bound to a definition: its chat reply and its task turn both run with it', async () => {
  bed.llm.respondWith(
    byRoute({
      'route-message': [
        reply.json({ kind: 'chat', reason: 'a greeting' }),
        reply.json({ kind: 'task', reason: 'work' }),
      ],
      chat: [reply.text('Hello, how can I help?')],
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('read it')],
      summary: [reply.text('Within 30 days.')],
    }),
  );
  const support = registry.get('support');
  const instructions = support?.definition.instructions ?? 'missing';
  const { threads, app } = threadApp();
  await withWorker(bed.config, async () => {
    const opened = await postJson(app, '/api/threads', { definition: 'support', text: 'hello' });
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const sent = await postJson(app, `/api/threads/${encodeURIComponent(id)}/messages`, {
      text: 'How long do I have to return a parcel?',
    });
    expect(sent.status).toBe(202);
    const turnId = `${id}/turn-2`;
    expect(await bed.client.workflow.getHandle(turnId).result()).toMatchObject({ status: 'completed' });

    // The chat reply's system prompt opens with the instructions; the turn's planner and step get them too.
    expect(systemOf('chat').startsWith(`${instructions}\n\n`)).toBe(true);
    expect(systemOf('plan')).toContain(instructions);
    expect(systemOf('step:s1')).toContain(instructions);
    expect(stepTools('s1')).not.toContain('write_file');
    expect(stepTools('s1')).toEqual(expect.arrayContaining(['read_file', 'list_files']));
    const input = (await startedInput(bed.client, turnId)) as Record<string, unknown>;
    expect(input.definition).toEqual(support?.snapshot);
    expect(input.limits).toMatchObject({ maxReplans: 1, maxParallelSteps: 2 });
    expect((await bed.client.workflow.getHandle(id).describe()).memo).toMatchObject({ definition: 'support' });
    await threads.temporal.workflow.getHandle(id).terminate('bound thread test over');
  });
});

test('POST /api/threads with an unknown definition is a 400 naming the field, and no thread opens', async () => {
  const { app } = threadApp();
  const res = await postJson(app, '/api/threads', { definition: 'no-such-agent', text: 'hello' });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string; field?: string } }).error).toMatchObject({
    code: 'INVALID_INPUT',
    field: 'definition',
  });
  expect(await listed()).toEqual([]);
});

test('the door: model "support" opens a thread bound to it; a model no definition has is 404 model_not_found; another definition on it is 409', async () => {
  bed.llm.respondWith(
    byRoute({
      'route-message': [
        reply.json({ kind: 'chat', reason: 'a greeting' }),
        reply.json({ kind: 'chat', reason: 'thanks' }),
      ],
      chat: [reply.text('Hello from support.'), reply.text('You are welcome.')],
    }),
  );
  const { app } = threadApp();
  const server = await serveOnLoopback(app);
  try {
    await withWorker(bed.config, async () => {
      const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const answer = await openai.chat.completions.create({
        model: 'support',
        messages: [{ role: 'user', content: 'hello' }],
      });
      expect(answer.choices[0]?.message.content).toContain('Hello from support.');
      expect(systemOf('chat')).toContain(registry.get('support')?.definition.instructions ?? 'missing');
      const refused = await openai.chat.completions
        .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] })
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
      expect(refused).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
      expect(bed.llm.requests.filter((r) => r.headers['x-cairn-purpose'] === 'route-message')).toHaveLength(1);

      // The thread is bound to support for life: the built-in model, or another definition, on it is 409.
      const thread = (answer as unknown as { cairn: { thread: string } }).cairn.thread;
      const onThread = { headers: { 'X-Cairn-Thread': thread } };
      for (const model of ['cairn', 'research']) {
        const other = await openai.chat.completions
          .create({ model, messages: [{ role: 'user', content: 'thanks' }] }, onThread)
          .catch((err: unknown) => err);
        expect(other).toBeInstanceOf(OpenAI.ConflictError);
        expect(other).toMatchObject({ status: 409, code: 'THREAD_DEFINITION' });
      }
      const messages = `/api/threads/${encodeURIComponent(thread)}/messages`;
      const sent = await postJson(app, messages, { text: 'thanks', definition: 'research' });
      expect(sent.status).toBe(409);
      expect(await sent.json()).toMatchObject({ error: { code: 'THREAD_DEFINITION' } });
      // None of them reached the thread's router; the thread's own definition still goes through.
      expect(bed.llm.requests.filter((r) => r.headers['x-cairn-purpose'] === 'route-message')).toHaveLength(1);
      const again = await openai.chat.completions.create(
        { model: 'support', messages: [{ role: 'user', content: 'thanks' }] },
        onThread,
      );
      expect(again.choices[0]?.message.content).toContain('You are welcome.');
      const view = await bed.client.workflow.getHandle(thread).query<{ definition?: { name: string } }>('thread');
      expect(view.definition).toMatchObject({ name: 'support', version: registry.get('support')?.snapshot.version });
      await bed.client.workflow.getHandle(thread).terminate('door definition test over');
    });
  } finally {
    await server.close();
  }
});
