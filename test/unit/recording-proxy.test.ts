/**
 * The real-model suite's recording proxy reads a streamed answer as the completion it adds up to
 * (finish_reason, usage, tool calls), so its checks judge streamed calls as they judged whole
 * ones; a whole answer reads as before.
 */
import { completionChunks } from '../../llm-servers/chat-completions-stream';
import { chatCompletion } from '../../llm-servers/chat-completions-wire';
import { describeResponse } from '../../real-model/recording-proxy';

const request = { messages: [{ role: 'user' as const, content: 'hello' }] };

/** The SSE body a server sends for `completion`. */
const sse = (completion: ReturnType<typeof chatCompletion>, includeUsage = true) =>
  completionChunks(completion, { includeUsage })
    .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
    .join('') + 'data: [DONE]\n\n';

test('a streamed answer is described like the whole one', () => {
  const whole = chatCompletion('c', 'm', request, {
    content: null,
    toolCalls: [
      { id: 'a', name: 'read_file', arguments: { path: 'x' } },
      { id: 'b', name: 'finish_step', arguments: { result: 'done' } },
    ],
    usage: { promptTokens: 30, completionTokens: 12 },
  });
  const { chunks, ...streamed } = describeResponse(sse(whole));
  expect(streamed).toEqual({ ...describeResponse(JSON.stringify(whole)), streamed: true });
  expect(streamed).toMatchObject({ finishReason: 'tool_calls', toolCalls: 2, promptTokens: 30, completionTokens: 12 });
  expect(chunks).toBe(completionChunks(whole, { includeUsage: true }).length);
});

test('a cut stream without usage, and an error event', () => {
  const cut = chatCompletion('c', 'm', request, { content: 'cut', toolCalls: [], quirks: { finishReason: 'length' } });
  expect(describeResponse(sse(cut, false))).toEqual({
    finishReason: 'length',
    toolCalls: 0,
    streamed: true,
    chunks: completionChunks(cut, { includeUsage: false }).length,
  });
  expect(describeResponse('data: {"error":{"message":"model overloaded"}}\n\n')).toMatchObject({
    error: 'model overloaded',
    streamed: true,
  });
});
