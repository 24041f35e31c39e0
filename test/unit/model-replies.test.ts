/**
 * The LLM call layer's reading of real servers (issue 16): reasoning kept out of content, object
 * tool arguments, estimated usage, the max_tokens of a call, the capability store's step downs,
 * CAIRN_LLM_MODELS validation, and the worker-start probe of llama.cpp's /props.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { maxTokensFor } from '../../activities/llm/max-tokens';
import { buildRequest } from '../../activities/llm/call-llm';
import { stageModel } from '../../workflows/model/llm/model-stages';
import { createCapabilityStore } from '../../activities/llm/model-capabilities';
import { readToolCalls, readUsage, stripReasoning } from '../../activities/llm/read-completion';
import { ConfigError, loadConfig } from '../../config/config';
import { probeLlmServer, propsUrl } from '../../worker/probe-llm';
import { JSON_SCHEMA_REFUSAL, LLAMA_CONTEXT_OVERFLOW, OPENAI_STRICT_REFUSAL } from '../fake-llm/quirks';

test('reasoning blocks are not content', () => {
  expect(stripReasoning('<think>hmm {"a":1}</think>\n{"b":2}')).toBe('{"b":2}');
  expect(stripReasoning('<think>cut inside the thought')).toBeNull();
  expect(stripReasoning('opened by the template</think>{"b":2}')).toBe('{"b":2}');
  expect(stripReasoning('plain')).toBe('plain');
  expect(stripReasoning(null)).toBeNull();
});

test('tool arguments given as an object become JSON text', () => {
  const message = {
    role: 'assistant',
    content: null,
    refusal: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: { a: 1 } } }],
  } as unknown as ChatCompletion.Choice['message'];
  expect(readToolCalls(message)).toEqual([{ id: 'c1', name: 'f', arguments: '{"a":1}' }]);
});

test('usage is reported when given, estimated and flagged when not', () => {
  const completion = (usage?: ChatCompletion['usage']) => ({ usage }) as ChatCompletion;
  expect(readUsage(completion({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }), 'x', 'y')).toEqual({
    promptTokens: 5,
    completionTokens: 2,
    totalTokens: 7,
  });
  expect(readUsage(completion(), 'a'.repeat(40), 'b'.repeat(8))).toEqual({
    promptTokens: 10,
    completionTokens: 2,
    totalTokens: 12,
    estimated: true,
  });
});

test("max_tokens: the agent's setting, then the model's entry, then '*', then the purpose default", () => {
  const models = { '*': { maxTokens: { step: 900, summary: 700 } }, m: { maxTokens: { step: 500 } } };
  expect(maxTokensFor('step', 'm', 123, models)).toBe(123);
  expect(maxTokensFor('step', 'm', undefined, models)).toBe(500);
  expect(maxTokensFor('summary', 'm', undefined, models)).toBe(700);
  expect(maxTokensFor('plan', 'other', undefined, models)).toBe(4096);
});

test('capabilities step down once per refusal named, per endpoint and model', () => {
  const store = createCapabilityStore({ pinned: { responseFormat: 'text' } });
  expect(store.get('e', 'pinned').responseFormat).toBe('text');
  const full = { responseFormat: 'json_schema' as const, strict: true };
  expect(store.downgrade('e', 'm', full, OPENAI_STRICT_REFUSAL)?.next).toMatchObject({ strict: false });
  expect(store.get('e', 'm')).toMatchObject({ responseFormat: 'json_schema', strict: false });
  expect(store.get('other', 'm').strict).toBe(true);
  const loose = { responseFormat: 'json_schema' as const, strict: false };
  expect(store.downgrade('e', 'm', loose, JSON_SCHEMA_REFUSAL)?.next.responseFormat).toBe('json_object');
  expect(store.downgrade('e', 'm', loose, LLAMA_CONTEXT_OVERFLOW)).toBeUndefined();
  expect(store.downgrade('e', 'm', { strict: false }, 'Internal server error')).toBeUndefined();
});

test('reasoning_effort is sent when asked for, and dropped for good once the endpoint refuses it', () => {
  const store = createCapabilityStore();
  const input = { purpose: 'plan' as const, ownerId: 'a', model: { reasoningEffort: 'high' as const } };
  const sent = buildRequest(input, [{ role: 'user', content: 'hi' }], [], {
    defaultModel: 'm',
    capabilities: store.get('e', 'm'),
  });
  expect(sent.reasoning_effort).toBe('high');
  const refusal = 'Unrecognized request argument supplied: reasoning_effort';
  expect(store.downgrade('e', 'm', { strict: false }, refusal)).toBeUndefined(); // not sent: nothing to drop
  const step = store.downgrade('e', 'm', { strict: false, reasoningEffort: true }, refusal);
  expect(step?.notice).toContain('refused reasoning_effort');
  const after = buildRequest(input, [{ role: 'user', content: 'hi' }], [], {
    defaultModel: 'm',
    capabilities: store.get('e', 'm'),
  });
  expect(after.reasoning_effort).toBeUndefined();
  expect(after.max_tokens).toBe(sent.max_tokens);
});

test('stop is sent as set; tool_choice only beside tools (an endpoint refuses it without them)', () => {
  const input = { purpose: 'step' as const, ownerId: 'a', model: { stop: ['<END>'], toolChoice: 'required' as const } };
  const tool = { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: {} } };
  const withTools = buildRequest(input, [{ role: 'user', content: 'hi' }], [tool], { defaultModel: 'm' });
  expect(withTools).toMatchObject({ stop: ['<END>'], tool_choice: 'required' });
  const without = buildRequest(input, [{ role: 'user', content: 'hi' }], [], { defaultModel: 'm' });
  expect(without.stop).toEqual(['<END>']);
  expect(without.tool_choice).toBeUndefined();
  const plain = buildRequest({ purpose: 'step', ownerId: 'a' }, [{ role: 'user', content: 'hi' }], [tool], {
    defaultModel: 'm',
  });
  expect(plain.stop).toBeUndefined();
  expect(plain.tool_choice).toBeUndefined();
});

test("stageModel: a stage's settings over the agent's model, the model alone for a stage without any", () => {
  const model = { name: 'base', temperature: 0.7 };
  const stages = { plan: { temperature: 0.1 }, summary: { name: 'small' } };
  expect(stageModel(model, stages, 'plan')).toEqual({ name: 'base', temperature: 0.1 });
  expect(stageModel(model, stages, 'summary')).toEqual({ name: 'small', temperature: 0.7 });
  expect(stageModel(model, stages, 'step')).toBe(model);
  expect(stageModel(undefined, stages, 'plan')).toEqual({ temperature: 0.1 });
  expect(stageModel(undefined, undefined, 'plan')).toBeUndefined();
});

test('CAIRN_LLM_MODELS is checked, one line per problem', () => {
  const base = { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' };
  expect(loadConfig({ ...base, CAIRN_LLM_MODELS: '{"m":{"maxTokens":{"step":64}}}' }).llm.models).toEqual({
    m: { maxTokens: { step: 64 } },
  });
  expect(loadConfig(base).llm.models).toEqual({});
  const problems = (text: string) => {
    try {
      loadConfig({ ...base, CAIRN_LLM_MODELS: text });
    } catch (err) {
      return err instanceof ConfigError ? err.lines : [];
    }
    return [];
  };
  expect(problems('{oops')).toEqual([expect.stringMatching(/^CAIRN_LLM_MODELS: expected JSON/)]);
  expect(problems('{"m":{"maxTokens":{"step":0}}}')).toEqual([expect.stringMatching(/m\.maxTokens\.step/)]);
  expect(problems('{"m":{"responseFormat":"yaml"}}')).toEqual([expect.stringMatching(/m\.responseFormat/)]);
});

test('the /props probe warns when the chat template cannot render tools, and tolerates a 404', async () => {
  const llm = loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }).llm;
  expect(propsUrl('http://host:8080/v1/')).toBe('http://host:8080/props');
  const answer = (status: number, body: unknown) => () => Promise.resolve(Response.json(body, { status }));
  const noTools = await probeLlmServer(
    llm,
    answer(200, { chat_template: '{{ bos }}{{ messages }}', default_generation_settings: { n_ctx: 2048 } }),
  );
  expect(noTools.join('\n')).toMatch(/context 2048 tokens[\s\S]*WARNING: .*drop the tools/);
  const withTools = await probeLlmServer(llm, answer(200, { chat_template: '{% if tools %}…{% endif %}' }));
  expect(withTools.join('\n')).not.toMatch(/WARNING/);
  expect(await probeLlmServer(llm, answer(404, { error: 'not found' }))).toEqual([]);
  expect(await probeLlmServer(llm, () => Promise.reject(new Error('refused')))).toEqual([]);
});
