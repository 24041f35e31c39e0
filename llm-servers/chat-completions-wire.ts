/**
 * The OpenAI Chat Completions wire format, server side: reading a request and writing a
 * completion or an OpenAI-shaped error, over plain `node:http`. One copy for the two endpoints
 * Cairn serves itself — the offline demo model (llm-servers/demo-model) and the tests' scripted
 * fake (test/fake-llm) — so both answer the real `openai` client exactly alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';

/** A Chat Completions request body, streamed (`stream: true`, chat-completions-stream.ts) or not. */
export type ChatCompletionRequest = Omit<ChatCompletionCreateParamsNonStreaming, 'stream'> & {
  stream?: boolean | null;
};

/** One tool call of an answer; `arguments` other than a string are JSON-encoded on the wire. */
export interface WireToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** What the assistant answers: text and/or tool calls, and the token counts to report. */
export interface AssistantAnswer {
  content: string | null;
  toolCalls: WireToolCall[];
  /** Reported as given; estimated from text sizes (4 characters a token) when left out. */
  usage?: { promptTokens: number; completionTokens: number };
  /** Quirks of real servers, for the tests' fake: see {@link WireQuirks}. */
  quirks?: WireQuirks;
}

/** How real servers stray from OpenAI's answers; the scripted fake imitates them on demand. */
export interface WireQuirks {
  /** `finish_reason` as given (e.g. `length`: the reply was cut at `max_tokens`). */
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  /** A separate `reasoning_content` field beside the content (llama.cpp, vLLM, DeepSeek). */
  reasoningContent?: string;
  /** No `usage` at all in the answer. */
  omitUsage?: boolean;
  /** Tool call `arguments` sent as a JSON object instead of a JSON string. */
  objectArguments?: boolean;
}

/** A Chat Completions request as received: its body, and its headers as one string each. */
export interface ChatRequest {
  body: ChatCompletionRequest;
  /** Lower-case names, as Node gives them. */
  headers: Record<string, string>;
}

/**
 * Reads a request to `POST …/chat/completions`, the one route both endpoints serve; undefined
 * (its body read all the same) for any other route.
 */
export async function readChatRequest(req: IncomingMessage): Promise<ChatRequest | undefined> {
  const raw = await readBody(req);
  if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return undefined;
  return { body: JSON.parse(raw) as ChatCompletionRequest, headers: flattenHeaders(req) };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Writes `value` as a JSON response. */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/** An OpenAI-shaped error body: `{ error: { message, type?, code? } }`. */
export function errorBody(message: string, details: { type?: string; code?: string } = {}): unknown {
  return { error: { message, ...details } };
}

/** The `chat.completion` object answering `request` with `answer`. */
export function chatCompletion(
  id: string,
  model: string,
  request: Pick<ChatCompletionCreateParamsNonStreaming, 'messages'>,
  answer: AssistantAnswer,
): ChatCompletion {
  const quirks = answer.quirks ?? {};
  const toolCalls = answer.toolCalls.map((call) => ({
    id: call.id,
    type: 'function' as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  // Some servers send the arguments object itself; the openai types cannot say so.
  const wireToolCalls = quirks.objectArguments
    ? answer.toolCalls.map((call, i) => ({ ...toolCalls[i], function: { name: call.name, arguments: call.arguments } }))
    : toolCalls;
  const promptTokens = answer.usage?.promptTokens ?? Math.ceil(JSON.stringify(request.messages).length / 4);
  const completionTokens =
    answer.usage?.completionTokens ?? Math.ceil(((answer.content ?? '') + JSON.stringify(toolCalls)).length / 4);
  const completion: ChatCompletion = {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        finish_reason: quirks.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        logprobs: null,
        message: {
          role: 'assistant',
          content: answer.content,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: wireToolCalls as typeof toolCalls } : {}),
          ...(quirks.reasoningContent !== undefined ? { reasoning_content: quirks.reasoningContent } : {}),
        },
      },
    ],
    ...(quirks.omitUsage
      ? {}
      : {
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
          },
        }),
  };
  return completion;
}
