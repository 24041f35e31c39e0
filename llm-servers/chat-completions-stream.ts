/**
 * The streamed form of a Chat Completions answer (`stream: true`), server side: the
 * `chat.completion.chunk` objects a real server sends as server-sent events — the role first,
 * then reasoning and text in pieces, each tool call as its id and name followed by fragments of
 * its arguments, the `finish_reason` in the last choice chunk, the usage in a chunk of its own
 * when `stream_options.include_usage` asks for it, and `data: [DONE]`. Made from the very
 * completion a non-streamed request would get (chat-completions-wire.ts), so both forms say the
 * same, quirks included.
 */
import type { ServerResponse } from 'node:http';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ChatCompletionRequest } from './chat-completions-wire';

/** Characters per text or argument piece unless told otherwise: a few tokens' worth. */
export const DEFAULT_CHUNK_CHARS = 6;

/** How a completion is cut into chunks. */
export interface ChunkOptions {
  /** Whether the request asked for the usage (`stream_options.include_usage`). */
  includeUsage: boolean;
  /** Characters per piece of text or arguments. */
  chunkChars?: number;
  /** Words per piece of text and reasoning instead (arguments stay in `chunkChars` pieces). */
  wordsPerChunk?: number;
}

/** Whether a request asks for a streamed answer. */
export function wantsStream(body: ChatCompletionRequest): boolean {
  return body.stream === true;
}

/** Whether a streamed request asks for the usage in its last chunk. */
export function wantsUsage(body: ChatCompletionRequest): boolean {
  return body.stream_options?.include_usage === true;
}

/** `text` in pieces of at most `size` characters (code points: never half a surrogate pair). */
export function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += Math.max(1, size)) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** `text` in pieces of `count` words each, every word with the space after it (joined, the text again). */
export function wordPieces(text: string, count: number): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += Math.max(1, count)) out.push(words.slice(i, i + count).join(''));
  return out;
}

/** The message fields a server may send beside the standard ones (llama.cpp, vLLM, DeepSeek). */
interface LooseMessage {
  reasoning_content?: unknown;
}

/** The chunks of `completion`, in the order a server sends them. */
export function completionChunks(completion: ChatCompletion, options: ChunkOptions): ChatCompletionChunk[] {
  const size = options.chunkChars ?? DEFAULT_CHUNK_CHARS;
  const words = options.wordsPerChunk;
  const textPieces = (text: string) => (words ? wordPieces(text, words) : pieces(text, size));
  const choice = completion.choices[0];
  const chunk = (delta: ChatCompletionChunk.Choice.Delta, finish: ChatCompletionChunk.Choice['finish_reason'] = null) =>
    frame(completion, [{ index: 0, delta, logprobs: null, finish_reason: finish }]);
  const out: ChatCompletionChunk[] = [chunk({ role: 'assistant', content: '' })];
  if (!choice) return out;
  const message = choice.message;
  const reasoning = (message as LooseMessage).reasoning_content;
  // Reasoning as its own field, as llama.cpp and vLLM stream it; the openai types cannot say so.
  if (typeof reasoning === 'string') {
    for (const piece of textPieces(reasoning))
      out.push(chunk({ reasoning_content: piece } as ChatCompletionChunk.Choice.Delta));
  }
  for (const piece of textPieces(message.content ?? '')) out.push(chunk({ content: piece }));
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    if (call.type !== 'function') continue;
    out.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      }),
    );
    const args: unknown = call.function.arguments;
    // A server that sends arguments as an object sends it whole, not in fragments.
    const fragments: unknown[] = typeof args === 'string' ? pieces(args, size) : [args];
    for (const fragment of fragments) {
      out.push(chunk({ tool_calls: [{ index, function: { arguments: fragment as string } }] }));
    }
  }
  out.push(chunk({}, choice.finish_reason));
  if (options.includeUsage && completion.usage) out.push({ ...frame(completion, []), usage: completion.usage });
  return out;
}

function frame(completion: ChatCompletion, choices: ChatCompletionChunk['choices']): ChatCompletionChunk {
  return {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    choices,
  };
}

/** Starts a server-sent event stream on `res`. */
export function startEventStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

/** Writes one chunk as an event. */
export function writeChunk(res: ServerResponse, chunk: ChatCompletionChunk): void {
  res.write(`data: ${JSON.stringify(chunk)}\n\n`);
}

/** Ends the stream the way OpenAI does: `data: [DONE]`. */
export function endEventStream(res: ServerResponse): void {
  res.end('data: [DONE]\n\n');
}

/**
 * Streams `completion` whole, no pacing: what the offline demo model sends to a streamed
 * request.
 */
export function sendStreamed(res: ServerResponse, completion: ChatCompletion, options: ChunkOptions): void {
  startEventStream(res);
  for (const chunk of completionChunks(completion, options)) writeChunk(res, chunk);
  endEventStream(res);
}
