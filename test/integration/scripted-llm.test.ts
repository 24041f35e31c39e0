/**
 * The scripted LLM fake, driven through the real `openai` client over HTTP: every behaviour
 * other tests rely on (content, tool calls, usage, JSON, recording, faults) is shown here.
 */
import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
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

describe('streamed answers', () => {
  const streamed = (includeUsage = true) =>
    client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
      ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
    });

  /** Every chunk of a stream, in order. */
  async function chunksOf(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
    const out: ChatCompletionChunk[] = [];
    for await (const chunk of stream) out.push(chunk);
    return out;
  }

  test('text and tool calls arrive in pieces, finish_reason in the last choice chunk, usage after it when asked', async () => {
    llm.enqueue(
      reply.text('a reply long enough for several chunks', { usage: { promptTokens: 5, completionTokens: 9 } }),
      reply.toolCalls([{ name: 'write_file', arguments: { path: 'notes.md', content: 'hello world' } }]),
      reply.text('no usage asked'),
    );
    const text = await chunksOf(await streamed());
    const contents = text.map((c) => c.choices[0]?.delta.content ?? '').filter((piece) => piece !== '');
    expect(contents.length).toBeGreaterThan(3);
    expect(contents.join('')).toBe('a reply long enough for several chunks');
    expect(text.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(text.at(-1)?.choices).toEqual([]);
    expect(text.at(-1)?.usage).toEqual({ prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 });
    expect(llm.requests[0]).toMatchObject({ streamed: true, chunksSent: text.length });

    const calls = await chunksOf(await streamed());
    const fragments = calls.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(fragments[0]).toMatchObject({ index: 0, id: 'call_1_1', function: { name: 'write_file', arguments: '' } });
    expect(fragments.length).toBeGreaterThan(3);
    const args = fragments.map((f) => f.function?.arguments ?? '').join('');
    expect(JSON.parse(args)).toEqual({ path: 'notes.md', content: 'hello world' });
    expect(calls.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');

    const bare = await chunksOf(await streamed(false));
    expect(bare.every((c) => c.usage === undefined)).toBe(true);
    expect(bare.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  test('a held end: the text arrives while the call is still open, and it ends once released', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    llm.enqueue(reply.endAfter(reply.text('visible before the end'), gate));
    const iterator = (await streamed())[Symbol.asyncIterator]();
    let text = '';
    while (text !== 'visible before the end') {
      const next = await iterator.next();
      if (next.done) throw new Error('the stream ended while its end was held');
      text += next.value.choices[0]?.delta.content ?? '';
    }
    expect(llm.requests[0]?.answeredAt).toBeUndefined();
    release();
    const rest: ChatCompletionChunk[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    expect(rest[0]?.choices[0]?.finish_reason).toBe('stop');
    expect(llm.requests[0]?.answeredAt).toBeDefined();
  });

  test('a disconnect mid-stream breaks the stream after the chunks sent', async () => {
    llm.enqueue(reply.disconnectAfter(reply.text('this reply is cut halfway through'), 3));
    const seen: ChatCompletionChunk[] = [];
    const reading = (async () => {
      for await (const chunk of await streamed()) seen.push(chunk);
    })();
    await expect(reading).rejects.toThrow();
    expect(seen).toHaveLength(3);
    expect(llm.requests[0]).toMatchObject({ disconnected: true, chunksSent: 3 });
  });

  test('chunks are paced by chunkDelayMs', async () => {
    await llm.close();
    llm = await ScriptedLlm.start({ chunkDelayMs: 40 });
    client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'k', maxRetries: 0, timeout: 5_000 });
    llm.enqueue(reply.text('paced text in pieces'));
    const chunks = await chunksOf(await streamed());
    const sent = llm.requests[0];
    // Every chunk after the first waited at least the pace: a lower bound, whatever the load.
    expect((sent?.answeredAt ?? 0) - (sent?.firstChunkAt ?? 0)).toBeGreaterThanOrEqual(40 * (chunks.length - 1) - 5);
  });

  test('an endpoint that cannot stream: refused by name, or answered with one JSON completion', async () => {
    await llm.close();
    llm = await ScriptedLlm.start({ streaming: 'refuse' });
    client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'k', maxRetries: 0, timeout: 5_000 });
    llm.enqueue(reply.text('not streamed'));
    const refused = await streamed().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).status).toBe(400);
    expect((refused as APIError).message).toMatch(/stream/);
    // The refusal used no scripted reply: the same call without streaming gets it.
    expect((await ask()).choices[0]?.message.content).toBe('not streamed');

    await llm.close();
    llm = await ScriptedLlm.start({ streaming: 'ignore' });
    llm.enqueue(reply.text('one completion'));
    const res = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe('one completion');
    expect(llm.requests[0]?.streamed).toBeUndefined();
  });
});
