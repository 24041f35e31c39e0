/**
 * The scripted LLM fake, driven through the real `openai` client over HTTP: every behaviour
 * other tests rely on (content, tool calls, usage, JSON, recording, faults) is shown here.
 */
import OpenAI, { APIConnectionError, APIError } from 'openai';
import { reply } from '../fake-llm/replies';
import { ScriptedLlm } from '../fake-llm/scripted-llm';

let llm: ScriptedLlm;
let client: OpenAI;

beforeEach(async () => {
  llm = await ScriptedLlm.start();
  client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'test-key', maxRetries: 0, timeout: 2_000 });
});

afterEach(async () => {
  await llm.close().catch(() => undefined);
});

const ask = (content = 'hello', headers: Record<string, string> = {}) =>
  client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content }] }, { headers });

test('answers queued text with usage and records the request with its headers', async () => {
  llm.enqueue(reply.text('hi there', { usage: { promptTokens: 7, completionTokens: 3 } }));
  const completion = await ask('hello', { 'X-Cairn-Purpose': 'plan', 'X-Cairn-Agent': 'agent-x-1' });
  expect(completion.choices[0]?.message.content).toBe('hi there');
  expect(completion.choices[0]?.finish_reason).toBe('stop');
  expect(completion.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  expect(llm.requests).toHaveLength(1);
  expect(llm.requests[0]?.headers['x-cairn-purpose']).toBe('plan');
  expect(llm.requests[0]?.headers['authorization']).toBe('Bearer test-key');
  expect(llm.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'hello' }]);
  expect(llm.requestsFor('plan')).toHaveLength(1);
});

test('answers tool calls with ids and JSON-encoded arguments', async () => {
  llm.enqueue(
    reply.toolCalls([
      { name: 'read_file', arguments: { path: 'a.txt' } },
      { name: 'finish_step', arguments: { result: 'done' }, id: 'mine' },
    ]),
  );
  const message = (await ask()).choices[0]?.message;
  expect(message?.tool_calls?.map((c) => (c.type === 'function' ? [c.id, c.function.name] : []))).toEqual([
    ['call_0_1', 'read_file'],
    ['mine', 'finish_step'],
  ]);
  const first = message?.tool_calls?.[0];
  expect(first?.type === 'function' && JSON.parse(first.function.arguments)).toEqual({ path: 'a.txt' });
});

test('serves JSON content, malformed JSON and schema-breaking JSON as content', async () => {
  llm.enqueue(reply.json({ steps: [] }), reply.malformedJson(), reply.schemaBreakingJson());
  expect(JSON.parse((await ask()).choices[0]?.message.content ?? '')).toEqual({ steps: [] });
  const malformed = (await ask()).choices[0]?.message.content ?? '';
  expect(() => JSON.parse(malformed) as unknown).toThrow(SyntaxError);
  const breaking = JSON.parse((await ask()).choices[0]?.message.content ?? '') as Record<string, unknown>;
  expect(Array.isArray(breaking.steps)).toBe(false);
});

test('a reply function sees the request; undefined falls through to the queue', async () => {
  llm.respondWith((req) => (req.body.messages.length > 1 ? reply.text(`saw ${req.body.messages.length}`) : undefined));
  llm.enqueue(reply.text('from queue'));
  expect((await ask()).choices[0]?.message.content).toBe('from queue');
  const long = await client.chat.completions.create({
    model: 'm',
    messages: [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
    ],
  });
  expect(long.choices[0]?.message.content).toBe('saw 2');
});

test('fails loudly when the script runs out: HTTP 400 now, and close() throws', async () => {
  await expect(ask()).rejects.toThrow(/400 .*script exhausted/);
  expect(llm.unscripted).toHaveLength(1);
  await expect(llm.close()).rejects.toThrow(/1 request\(s\) had no scripted reply/);
});

test('injects 429 with Retry-After, 500, and a broken body', async () => {
  llm.enqueue(reply.rateLimited(7), reply.error(500), reply.brokenBody());
  const limited = await ask().catch((e: unknown) => e);
  expect(limited).toBeInstanceOf(APIError);
  expect((limited as APIError).status).toBe(429);
  expect((limited as APIError).headers?.get('retry-after')).toBe('7');
  await expect(ask()).rejects.toMatchObject({ status: 500 });
  await expect(ask()).rejects.toThrow();
});

test('injects latency, and a hang that only the client timeout ends', async () => {
  llm.enqueue(reply.text('slow', { delayMs: 300 }), reply.hang());
  await ask();
  const first = llm.requests[0];
  expect((first?.answeredAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(290);
  const quick = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'k', maxRetries: 0, timeout: 300 });
  // A timeout is an APIConnectionTimeoutError in plain Node; jest's sandboxed globals make the
  // client report its parent class, so assert the parent.
  await expect(quick.chat.completions.create({ model: 'm', messages: [] })).rejects.toBeInstanceOf(APIConnectionError);
  expect(llm.requests[1]?.answeredAt).toBeUndefined();
});

test('holds a reply until a matching request has arrived, and fails loudly when none does', async () => {
  const asStep = (id: string) => ask(id, { 'X-Cairn-Purpose': 'step', 'X-Cairn-Step': id });
  llm.enqueue(
    reply.heldUntil(reply.text('a'), { step: 'b' }),
    reply.text('b'),
    reply.heldUntil(reply.text('c'), { purpose: 'step', step: 'a' }),
    reply.heldUntil(reply.text('d'), { step: 'never' }, 200),
  );
  const a = asStep('a');
  await llm.waitForRequests(1);
  expect(llm.requests[0]?.answeredAt).toBeUndefined(); // held: b has not been asked yet
  expect((await asStep('b')).choices[0]?.message.content).toBe('b');
  expect((await a).choices[0]?.message.content).toBe('a');
  expect(llm.requests[0]?.releasedBy).toBe(1);
  // A matching request that arrived earlier releases at once.
  expect((await asStep('c')).choices[0]?.message.content).toBe('c');
  expect(llm.requests[2]?.releasedBy).toBe(0);
  // Nothing releases d: it is answered at the timeout, and the failure is recorded and thrown.
  expect((await asStep('d')).choices[0]?.message.content).toBe('d');
  expect(llm.requests[3]?.releasedBy).toBeUndefined();
  expect(llm.holdFailures).toEqual([
    "scripted-llm: step:never's request never arrived while step:d's reply (request #3) was held (200 ms)",
  ]);
  await expect(llm.close()).rejects.toThrow(/step:never's request never arrived/);
});
