/**
 * Sends one Chat Completions request, streamed or not, and gives back the whole reply as one
 * `chat.completion` either way. Streamed (`stream: true`, usage asked for in the last chunk),
 * each chunk is reported as it arrives — its deltas for viewers, and a sign of life the activity
 * heartbeats on — and a stream that goes quiet for the client's timeout is given up as a timeout
 * (Node's fetch timeout ends with the response headers, not the body). An endpoint that answers
 * a streamed request with one JSON completion is read as such, and said to be unable to stream.
 */
import type OpenAI from 'openai';
import { APIConnectionTimeoutError, APIUserAbortError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';
import { Stream } from 'openai/streaming';
import { ChunkAccumulator, type LiveDelta } from './accumulate-chunks';

/** How one request is sent and watched. */
export interface CompletionRequestOptions {
  /** Ask for a streamed answer. */
  stream: boolean;
  headers: Record<string, string>;
  /** Cancels the request (the activity's cancellation). */
  signal: AbortSignal;
  /** Called with each chunk's deltas (streamed answers only). */
  onDeltas?: (deltas: LiveDelta[]) => void;
}

/** The reply, and whether it came as a stream. */
export interface CompletionReply {
  completion: ChatCompletion;
  streamed: boolean;
}

/** Sends `request`; see the module comment. */
export async function requestCompletion(
  openai: OpenAI,
  request: ChatCompletionCreateParamsNonStreaming,
  options: CompletionRequestOptions,
): Promise<CompletionReply> {
  if (!options.stream) {
    const completion = await openai.chat.completions.create(request, {
      headers: options.headers,
      signal: options.signal,
    });
    return { completion, streamed: false };
  }
  // Quiet for the client's timeout: the call is given up like a non-streamed one that timed out.
  const idle = new AbortController();
  const signal = AbortSignal.any([options.signal, idle.signal]);
  let timer = setTimeout(() => idle.abort(), openai.timeout);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), openai.timeout);
  };
  try {
    const response = await openai.chat.completions
      .create(
        { ...request, stream: true, stream_options: { include_usage: true } },
        { headers: options.headers, signal },
      )
      .asResponse();
    if (!/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
      // The endpoint ignored `stream: true` and answered with the whole completion.
      return { completion: (await response.json()) as ChatCompletion, streamed: false };
    }
    const reply = new ChunkAccumulator();
    for await (const chunk of Stream.fromSSEResponse<ChatCompletionChunk>(response, new AbortController())) {
      alive();
      const deltas = reply.add(chunk);
      if (deltas.length > 0) options.onDeltas?.(deltas);
    }
    // The openai stream ends quietly when its request is aborted: say why it ended.
    if (options.signal.aborted) throw new APIUserAbortError();
    if (idle.signal.aborted) throw new APIConnectionTimeoutError();
    return { completion: reply.completion(), streamed: true };
  } catch (err) {
    if (idle.signal.aborted && !options.signal.aborted) throw new APIConnectionTimeoutError();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
