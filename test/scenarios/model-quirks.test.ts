/**
 * Real models misbehaving (issue 16, the LLM call layer and the planner), each case scripted in
 * the shared fake: structured output from the zod plan schemas and a `max_tokens` per purpose in
 * every request body; the ask mode kept on JSON; replies cut at the token limit; endpoints
 * refusing json_schema or strict (stepped down once, remembered, said in the timeline, or pinned
 * by configuration); a context overflow with its own code; a 500 parse error not retried;
 * replans that cannot break finished work; reasoning blocks, missing usage, object arguments;
 * sub-agents inheriting the agent's model settings.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { quirk, refusing } from '../fake-llm/quirks';
import type { RecordedRequest } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { recordHistory } from '../harness/histories';
import { startAgent, stateOf } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker } from '../harness/test-env';
import { planJsonSchema, remainingPlanJsonSchema } from '../../workflows/model/plan/plan-schema';

const bed = agentTestbed();

const okSteps = { 'step:s1': [finish('one')], summary: [reply.text('done')] };

const userMessages = (request: RecordedRequest | undefined): string[] =>
  (request?.body.messages ?? []).flatMap((m) =>
    m.role === 'user' && typeof m.content === 'string' ? [m.content] : [],
  );
const assistantTexts = (request: RecordedRequest | undefined): string[] =>
  (request?.body.messages ?? []).flatMap((m) =>
    m.role === 'assistant' && typeof m.content === 'string' ? [m.content] : [],
  );

/** The failure code of an agent that failed. */
async function failureCode(result: Promise<unknown>): Promise<string | undefined> {
  const error = await result.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowFailedError);
  const cause = (error as WorkflowFailedError).cause as { type?: string; cause?: { type?: string } } | undefined;
  return cause?.type ?? cause?.cause?.type;
}

describe('request bodies', () => {
  test('plan and replan ask for strict JSON Schemas equal to the zod schemas; every purpose has its max_tokens', async () => {
    bed.llm.respondWith(
      byRoute({
        plan: [planReply(plan([step('s1')], { replan: ['s1'] }))],
        'step:s1': [finish('one')],
        replan: [reply.json({ steps: [step('s2', ['s1'])], replan: [] })],
        'step:s2': [reply.toolCall('model', { task: 'a sub-call' }), finish('two')],
        model: [reply.text('sub answer')],
        summary: [reply.text('done')],
      }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'structured' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    const [planRequest] = bed.llm.requestsFor('plan');
    // The reply formats derived from the plan's zod schemas (bounded for decoding: check-plan.test.ts).
    expect(planRequest?.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'plan', strict: true, schema: planJsonSchema() },
    });
    expect(bed.llm.requestsFor('replan')[0]?.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'replan', strict: true, schema: remainingPlanJsonSchema() },
    });
    const maxTokens = (purpose: string) => bed.llm.requestsFor(purpose).map((r) => r.body.max_tokens);
    expect(maxTokens('plan')).toEqual([4096]);
    expect(maxTokens('replan')).toEqual([4096]);
    expect(maxTokens('step')).toEqual([4096, 4096, 4096]);
    expect(maxTokens('model')).toEqual([2048]);
    expect(maxTokens('summary')).toEqual([2048]);
    // Tools carry strict where the endpoint takes it.
    const tools = bed.llm.requestsFor('step')[0]?.body.tools ?? [];
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.type === 'function' && t.function.strict === true)).toBe(true);
  });

  test('CAIRN_LLM_MODELS sets max_tokens per model and purpose', async () => {
    const config = testConfig(bed.llm, {
      CAIRN_LLM_MODELS: JSON.stringify({
        '*': { maxTokens: { summary: 300 } },
        'scripted-model': { maxTokens: { plan: 1000 } },
      }),
      CAIRN_MODEL: 'scripted-model',
    });
    bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))], ...okSteps }));
    await withWorker(config, async () => {
      const handle = await startAgent(bed.client, config, { task: 'budgets' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    expect(bed.llm.requestsFor('plan')[0]?.body.max_tokens).toBe(1000);
    expect(bed.llm.requestsFor('summary')[0]?.body.max_tokens).toBe(300);
    expect(bed.llm.requestsFor('step')[0]?.body.max_tokens).toBe(4096);
  });

  test('in ask mode the planner is still held to the plan schema', async () => {
    bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))], ...okSteps }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'may ask', mode: { ask: true } });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    const [planRequest] = bed.llm.requestsFor('plan');
    expect(planRequest?.body.tools?.map((t) => (t.type === 'function' ? t.function.name : ''))).toEqual(['ask_user']);
    expect(planRequest?.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'plan' } });
  });

  test('a sub_agent inherits the agent model settings', async () => {
    bed.llm.respondWith(
      byRoute({
        plan: [planReply(plan([step('s1')])), planReply(plan([step('n1')]))],
        'step:s1': [reply.toolCall('sub_agent', { task: 'dig' }, 'sa1'), finish('used it')],
        'step:n1': [finish('nested')],
        summary: [reply.text('nested answer'), reply.text('answer')],
      }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'nest', model: { maxTokens: 321 } });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    const nested = bed.llm.requests.filter((r) => r.headers['x-cairn-agent']?.includes('/sub-'));
    expect(nested.length).toBe(3); // plan, step n1, summary of the sub-agent
    expect(nested.map((r) => r.body.max_tokens)).toEqual([321, 321, 321]);
  });
});

describe('cut replies', () => {
  test('a plan cut at the token limit gets a "cut" correction, an llm.cut event, and is not re-sent', async () => {
    const cutPlan = JSON.stringify(plan([step('s1')])).slice(0, 40);
    bed.llm.respondWith(byRoute({ plan: [reply.cut(cutPlan), planReply(plan([step('s1')]))], ...okSteps }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'cut plan' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      const state = await stateOf(handle);
      expect(state.events.find((e) => e.type === 'llm.cut')?.message).toMatch(/cut at its token limit/);
    });
    const second = bed.llm.requestsFor('plan')[1];
    expect(userMessages(second).at(-1)).toMatch(/cut at its token limit/);
    expect(userMessages(second).at(-1)).not.toMatch(/not valid JSON/);
    expect(assistantTexts(second).join('\n')).not.toContain(cutPlan);
  });

  test('a step reply cut at the token limit is not the step result; the model is told', async () => {
    bed.llm.respondWith(
      byRoute({
        plan: [planReply(plan([step('s1')]))],
        'step:s1': [reply.cut('The answer is the following long list: 1, 2, 3'), finish('whole answer')],
        summary: [reply.text('done')],
      }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'cut step' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      const state = await stateOf(handle);
      expect(state.steps[0]?.result).toBe('whole answer');
      expect(state.events.find((e) => e.type === 'llm.cut')).toMatchObject({ stepId: 's1' });
      await recordHistory('step-cut-reply', bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`));
    });
    expect(userMessages(bed.llm.requestsFor('step')[1]).at(-1)).toMatch(/cut at its token limit/);
  });
});

describe('rejected plans', () => {
  test('a rejected plan is replaced by a short note in later planner calls', async () => {
    const bad = plan([step('s1', ['ghost'])], { task: 'BAD-PLAN-MARKER '.repeat(20) });
    bed.llm.respondWith(byRoute({ plan: [planReply(bad), planReply(plan([step('s1')]))], ...okSteps }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'reject once' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    const second = bed.llm.requestsFor('plan')[1];
    expect(JSON.stringify(second?.body.messages)).not.toContain('BAD-PLAN-MARKER');
    expect(assistantTexts(second).at(-1)).toMatch(/could not be used/);
    expect(userMessages(second).at(-1)).toMatch(/depends on unknown step "ghost"/);
  });
});

describe('endpoint capabilities', () => {
  test('a refused json_schema steps down to json_object once, is remembered, and the timeline says so', async () => {
    const refused: RecordedRequest[] = [];
    const answers = byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('s1')]))],
      'step:s1': [finish('one'), finish('one')],
      summary: [reply.text('done'), reply.text('done')],
    });
    bed.llm.respondWith(refusing('json_schema', answers, refused));
    await withWorker(bed.config, async () => {
      const first = await startAgent(bed.client, bed.config, { task: 'refused schema' });
      expect(await first.result()).toMatchObject({ status: 'completed' });
      const notice = (await stateOf(first)).events.find((e) => e.type === 'llm.notice');
      expect(notice?.message).toMatch(/refused response_format json_schema/);
      const second = await startAgent(bed.client, bed.config, { task: 'remembered' });
      expect(await second.result()).toMatchObject({ status: 'completed' });
    });
    expect(refused).toHaveLength(1);
    expect(bed.llm.requestsFor('plan').map((r) => r.body.response_format?.type)).toEqual([
      'json_schema',
      'json_object',
      'json_object',
    ]);
  });

  test('a refused strict schema is sent again without strict', async () => {
    const refused: RecordedRequest[] = [];
    bed.llm.respondWith(refusing('strict', byRoute({ plan: [planReply(plan([step('s1')]))], ...okSteps }), refused));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'not strict' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    expect(refused).toHaveLength(1);
    const [, retried] = bed.llm.requestsFor('plan');
    expect(retried?.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'plan' } });
    expect(retried?.body.response_format).not.toMatchObject({ json_schema: { strict: true } });
  });

  test('capabilities pinned in CAIRN_LLM_MODELS are used from the first call', async () => {
    const config = testConfig(bed.llm, {
      CAIRN_LLM_MODELS: JSON.stringify({ '*': { responseFormat: 'json_object', strict: false } }),
    });
    bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))], ...okSteps }));
    await withWorker(config, async () => {
      const handle = await startAgent(bed.client, config, { task: 'pinned' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    expect(bed.llm.requestsFor('plan')[0]?.body.response_format).toEqual({ type: 'json_object' });
    const tools = bed.llm.requestsFor('step')[0]?.body.tools ?? [];
    expect(tools.some((t) => t.type === 'function' && t.function.strict !== undefined)).toBe(false);
  });
});

describe('errors of our own making', () => {
  test('a context overflow fails the agent with LLM_CONTEXT_EXCEEDED, not a bare LLM_REJECTED', async () => {
    bed.llm.respondWith(byRoute({ plan: [quirk.contextOverflow()] }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'too long' });
      expect(await failureCode(handle.result())).toBe('LLM_CONTEXT_EXCEEDED');
      expect((await stateOf(handle)).error).toMatch(/does not fit the model's context window/);
    });
  });

  test('a 500 "Failed to parse tool call arguments" is not retried', async () => {
    bed.llm.respondWith(
      byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [quirk.toolArgumentsUnparsable()] }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'unparsable' });
      expect(await failureCode(handle.result())).toBe('STEP_FAILED');
      expect((await stateOf(handle)).steps[0]?.error).toMatch(/could not parse the request/);
    });
    expect(bed.llm.requestsFor('step')).toHaveLength(1);
  });
});

describe('replans cannot break finished work', () => {
  test('a replan repeating the kept steps is accepted', async () => {
    const first = plan([step('s1')], { replan: ['s1'] });
    bed.llm.respondWith(byRoute({ plan: [planReply(first)], replan: [planReply(first)], ...okSteps }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'repeat kept' });
      expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
      await recordHistory('agent-replan-repeats-kept', handle);
    });
    expect(bed.llm.requestsFor('replan')).toHaveLength(1);
  });

  test('three unusable replans keep the current plan: the remaining steps run, then the summary', async () => {
    bed.llm.respondWith(
      byRoute({
        plan: [planReply(plan([step('s1'), step('s2', ['s1'])], { replan: ['s1'] }))],
        replan: [reply.malformedJson(), reply.schemaBreakingJson(), reply.text('no idea')],
        'step:s1': [finish('one')],
        'step:s2': [finish('two')],
        summary: [reply.text('done')],
      }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'bad replanner' });
      expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
      const state = await stateOf(handle);
      expect(state.steps.map((s) => [s.id, s.status])).toEqual([
        ['s1', 'completed'],
        ['s2', 'completed'],
      ]);
      expect(state.events.find((e) => e.type === 'plan.kept')?.message).toMatch(/current plan stays.*s2/);
      await recordHistory('agent-replan-keeps-plan', handle);
    });
  });
});

describe('plans whose graph a weak model cannot get right', () => {
  test('a third plan that breaks only the DAG rules is repaired, said in the timeline, and run', async () => {
    // Structured output holds the shape, not the graph: duplicate ids and a dangling dependency.
    const broken = plan([step('s1', ['s9']), step('s1')]);
    bed.llm.respondWith(
      byRoute({
        plan: [planReply(broken), planReply(broken), planReply(broken)],
        'step:s1': [finish('one')],
        'step:s1-2': [finish('two')],
        summary: [reply.text('done')],
      }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'weak planner' });
      expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
      const state = await stateOf(handle);
      expect(state.events.filter((e) => e.type === 'plan.rejected')).toHaveLength(3);
      expect(state.events.find((e) => e.type === 'plan.repaired')?.message).toBe(
        'the planner gave 3 unusable replies in a row; reply 3 was repaired: ' +
          'step "s1": duplicate id, renamed to "s1-2"; step "s1": dropped its dependency on unknown step "s9"',
      );
      expect(state.steps.map((s) => [s.id, s.status])).toEqual([
        ['s1', 'completed'],
        ['s1-2', 'completed'],
      ]);
      await recordHistory('agent-plan-repaired', handle);
    });
    expect(bed.llm.requestsFor('plan')).toHaveLength(3);
  });

  test('the latest usable of three bad replies is used: here a reply cut at its token limit keeps its complete steps', async () => {
    // What llama.cpp sends when a small model loops inside structured output: valid JSON, cut.
    const full = JSON.stringify(plan([step('s1'), step('s2', ['s1']), step('s3', ['s2'])]));
    const cutInThirdStep = reply.cut(full.slice(0, full.indexOf('"s3"') + 10));
    bed.llm.respondWith(
      byRoute({
        plan: [reply.schemaBreakingJson(), cutInThirdStep, reply.malformedJson()],
        'step:s1': [finish('one')],
        'step:s2': [finish('two')],
        summary: [reply.text('done')],
      }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'looping planner' });
      expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
      const state = await stateOf(handle);
      expect(state.events.filter((e) => e.type === 'llm.cut')).toHaveLength(1);
      expect(state.events.filter((e) => e.type === 'plan.rejected')).toHaveLength(3);
      expect(state.events.find((e) => e.type === 'plan.repaired')?.message).toBe(
        'the planner gave 3 unusable replies in a row; reply 2 was repaired: ' +
          'it was cut at its token limit; its complete steps were kept (s1, s2)',
      );
      expect(state.plan?.steps).toEqual([step('s1'), step('s2', ['s1'])]);
      await recordHistory('agent-plan-cut-salvaged', handle);
    });
  });
});

describe('what real servers send', () => {
  test('reasoning blocks stay out of the parsed plan; missing usage is estimated and flagged', async () => {
    const thought = quirk.thinking(JSON.stringify(plan([step('s1')])));
    bed.llm.respondWith(byRoute({ plan: [quirk.noUsage(thought)], ...okSteps }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'thinking' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      const state = await stateOf(handle);
      expect(state.events.filter((e) => e.type === 'plan.rejected')).toEqual([]);
      expect(state.usage.estimated).toBe(true);
      expect(state.usage.totalTokens).toBeGreaterThan(0);
    });
    expect(bed.llm.requestsFor('plan')).toHaveLength(1);
  });

  test('tool arguments sent as an object are accepted', async () => {
    bed.llm.respondWith(
      byRoute({
        plan: [planReply(plan([step('s1')]))],
        'step:s1': [quirk.objectArguments('finish_step', { result: 'from an object' })],
        summary: [reply.text('done')],
      }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'object args' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      expect((await stateOf(handle)).steps[0]?.result).toBe('from an object');
    });
  });
});
