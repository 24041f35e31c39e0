/**
 * Streamed replies read as whole ones: the chunk accumulator rebuilds the `chat.completion` a
 * non-streamed request gets — from the very chunks the scripted fake and the demo model send —
 * so the readers of read-completion.ts give the same content, tool calls and usage either way;
 * it labels each chunk's deltas (text, reasoning, tool arguments), tells inline `<think>` from
 * text across chunk boundaries, and refuses a stream that ended before its reply did. Endpoints
 * that cannot stream are recognised and remembered, and the worker's start line says so.
 */
import { APIError } from 'openai';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ChunkAccumulator, IncompleteStreamError, type LiveDelta } from '../../activities/llm/accumulate-chunks';
import { readToolCalls, readUsage, stripReasoning } from '../../activities/llm/read-completion';
import { createStreamSupport, isStreamRefusal } from '../../activities/llm/stream-support';
import { ThinkSplitter } from '../../activities/llm/think-splitter';
import { loadConfig } from '../../config/config';
import { completionChunks } from '../../llm-servers/chat-completions-stream';
import { chatCompletion, type AssistantAnswer } from '../../llm-servers/chat-completions-wire';
import { describeLlm } from '../../worker/describe-llm';

const request = { messages: [{ role: 'user' as const, content: 'hello' }] };

/** The completion a server sends for `answer`, and the same answer streamed and rebuilt. */
function bothWays(answer: AssistantAnswer, chunkChars = 3) {
  const whole = chatCompletion('chatcmpl-1', 'm', request, answer);
  const reply = new ChunkAccumulator();
  const deltas: LiveDelta[] = [];
  for (const chunk of completionChunks(whole, { includeUsage: true, chunkChars })) deltas.push(...reply.add(chunk));
  return { whole, rebuilt: reply.completion(), deltas };
}

/** What the activity reads of a completion. */
function read(completion: ChatCompletion) {
  const choice = completion.choices[0];
  if (!choice) throw new Error('no choice');
  return {
    content: stripReasoning(choice.message.content),
    toolCalls: readToolCalls(choice.message),
    finishReason: choice.finish_reason,
    usage: readUsage(completion, 'request', choice.message.content ?? ''),
  };
}

const join = (deltas: LiveDelta[], channel: LiveDelta['channel']) =>
  deltas
    .filter((d) => d.channel === channel)
    .map((d) => d.text)
    .join('');

describe('a streamed reply reads as the whole one', () => {
  test('text with usage', () => {
    const { whole, rebuilt, deltas } = bothWays({ content: 'Three apps, compared.', toolCalls: [] });
    expect(read(rebuilt)).toEqual(read(whole));
    expect(join(deltas, 'text')).toBe('Three apps, compared.');
    expect(deltas.filter((d) => d.channel === 'text').length).toBeGreaterThan(3);
  });

  test('tool calls: names and ids first, arguments in fragments, tagged by call', () => {
    const { whole, rebuilt, deltas } = bothWays({
      content: null,
      toolCalls: [
        { id: 'c1', name: 'write_file', arguments: { path: 'a.md', content: 'hi' } },
        { id: 'c2', name: 'finish_step', arguments: { result: 'done' } },
      ],
    });
    expect(read(rebuilt)).toEqual(read(whole));
    const tool = deltas.filter((d) => d.channel === 'tool');
    expect(tool.filter((d) => d.toolName).map((d) => [d.toolCallId, d.toolName])).toEqual([
      ['c1', 'write_file'],
      ['c2', 'finish_step'],
    ]);
    const argsOf = (id: string) =>
      tool
        .filter((d) => d.toolCallId === id)
        .map((d) => d.text)
        .join('');
    expect(JSON.parse(argsOf('c1'))).toEqual({ path: 'a.md', content: 'hi' });
    expect(JSON.parse(argsOf('c2'))).toEqual({ result: 'done' });
  });

  test('the quirks: reasoning_content, <think> in the content, a cut reply, no usage, arguments as an object', () => {
    const thinking = bothWays({
      content: '<think>first this, then that</think>\nThe plan.',
      toolCalls: [],
      quirks: { reasoningContent: 'first this, then that', finishReason: 'length', omitUsage: true },
    });
    expect(read(thinking.rebuilt)).toEqual(read(thinking.whole));
    expect(read(thinking.rebuilt)).toMatchObject({ content: 'The plan.', finishReason: 'length' });
    expect(read(thinking.rebuilt).usage.estimated).toBe(true);
    expect(join(thinking.deltas, 'text')).toBe('\nThe plan.');
    // The same thoughts in the separate field and the inline block reach viewers once.
    expect(join(thinking.deltas, 'reasoning')).toBe('first this, then that');
    const inlineOnly = bothWays({ content: '<think>hmm</think>\nYes.', toolCalls: [] });
    expect([join(inlineOnly.deltas, 'reasoning'), join(inlineOnly.deltas, 'text')]).toEqual(['hmm', '\nYes.']);

    const object = bothWays({
      content: null,
      toolCalls: [{ id: 'c1', name: 'finish_step', arguments: { result: 'as an object' } }],
      quirks: { objectArguments: true },
    });
    expect(read(object.rebuilt).toolCalls).toEqual([
      { id: 'c1', name: 'finish_step', arguments: '{"result":"as an object"}' },
    ]);
  });

  test('a stream that ended before its finish_reason is not a reply', () => {
    const whole = chatCompletion('chatcmpl-1', 'm', request, { content: 'cut short', toolCalls: [] });
    const chunks = completionChunks(whole, { includeUsage: true });
    const reply = new ChunkAccumulator();
    for (const chunk of chunks.slice(0, -2)) reply.add(chunk);
    expect(() => reply.completion()).toThrow(IncompleteStreamError);
  });

  test('usage is taken from the last chunk, with cached tokens', () => {
    const reply = new ChunkAccumulator();
    const frame = (choices: ChatCompletionChunk['choices'], usage?: ChatCompletionChunk['usage']) => ({
      id: 'x',
      object: 'chat.completion.chunk' as const,
      created: 1,
      model: 'm',
      choices,
      ...(usage ? { usage } : {}),
    });
    reply.add(frame([{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop', logprobs: null }]));
    reply.add(
      frame([], {
        prompt_tokens: 10,
        completion_tokens: 2,
        total_tokens: 12,
        prompt_tokens_details: { cached_tokens: 8 },
      }),
    );
    expect(read(reply.completion()).usage).toEqual({
      promptTokens: 10,
      completionTokens: 2,
      totalTokens: 12,
      cachedPromptTokens: 8,
    });
  });
});

test('<think> tags cut across chunks never leak into text', () => {
  const text = 'Before <think>hidden <b>thought</b></think> after <thin and more';
  for (let size = 1; size <= 9; size++) {
    const splitter = new ThinkSplitter();
    const pieces: { channel: string; text: string }[] = [];
    for (let i = 0; i < text.length; i += size) pieces.push(...splitter.push(text.slice(i, i + size)));
    pieces.push(...splitter.flush());
    const of = (channel: string) =>
      pieces
        .filter((p) => p.channel === channel)
        .map((p) => p.text)
        .join('');
    expect([size, of('text'), of('reasoning')]).toEqual([
      size,
      'Before  after <thin and more',
      'hidden <b>thought</b>',
    ]);
  }
});

describe('endpoints that cannot stream', () => {
  const refusal = (status: number, message: string, param?: string) =>
    APIError.generate(status, { error: { message, ...(param ? { param } : {}) } }, message, new Headers());

  test('a refusal of streaming is told from other refusals', () => {
    expect(isStreamRefusal(refusal(400, "scripted-llm: 'stream' is not supported by this endpoint"))).toBe(true);
    expect(isStreamRefusal(refusal(400, "Unsupported value: 'stream' does not support true with this model."))).toBe(
      true,
    );
    expect(isStreamRefusal(refusal(400, 'Unrecognized request argument supplied: stream_options'))).toBe(true);
    expect(isStreamRefusal(refusal(400, 'Invalid value', 'stream'))).toBe(true);
    expect(isStreamRefusal(refusal(400, 'the request exceeds the available context size'))).toBe(false);
    expect(isStreamRefusal(refusal(500, 'upstream stream reset'))).toBe(false);
    expect(isStreamRefusal(new Error('stream not supported'))).toBe(false);
  });

  test('found out once per endpoint and model; CAIRN_LLM_STREAM=off streams nothing', () => {
    const support = createStreamSupport();
    expect(support.canStream('http://a/v1', 'm')).toBe(true);
    expect(support.cannotStream('http://a/v1', 'm')).toBe(true);
    expect(support.cannotStream('http://a/v1', 'm')).toBe(false);
    expect(support.canStream('http://a/v1', 'm')).toBe(false);
    expect(support.canStream('http://a/v1', 'other')).toBe(true);
    expect(support.canStream('http://b/v1', 'm')).toBe(true);
    expect(createStreamSupport(false).canStream('http://a/v1', 'm')).toBe(false);
  });

  test("the worker's start line says whether calls stream", () => {
    const on = loadConfig({ OPENAI_BASE_URL: 'http://localhost:8080/v1', CAIRN_MODEL: 'llama' });
    expect(describeLlm(on)).toBe(
      'LLM: llama at http://localhost:8080/v1; streaming: on (an endpoint that cannot stream is called without, said once when found)',
    );
    const off = loadConfig({ OPENAI_BASE_URL: 'http://localhost:8080/v1', CAIRN_LLM_STREAM: 'off' });
    expect(describeLlm(off)).toMatch(/; streaming: off \(CAIRN_LLM_STREAM=off\)$/);
  });
});
