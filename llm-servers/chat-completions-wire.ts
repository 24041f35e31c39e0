/**
 * The OpenAI Chat Completions wire format, server side: reading a request and writing a
 * completion or an OpenAI-shaped error, over plain `node:http`. One copy for the two endpoints
 * Cairn serves itself — the offline demo model (llm-servers/demo-model) and the tests' scripted
 * fake (test/fake-llm) — so both answer the real `openai` client exactly alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';

/** A Chat Completions request body (`stream` is refused by both endpoints). */
export type ChatCompletionRequest = ChatCompletionCreateParamsNonStreaming & { stream?: boolean };

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
  request: ChatCompletionCreateParamsNonStreaming,
  answer: AssistantAnswer,
): ChatCompletion {
  const toolCalls = answer.toolCalls.map((call) => ({
    id: call.id,
    type: 'function' as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  const promptTokens = answer.usage?.promptTokens ?? Math.ceil(JSON.stringify(request.messages).length / 4);
  const completionTokens =
    answer.usage?.completionTokens ?? Math.ceil(((answer.content ?? '') + JSON.stringify(toolCalls)).length / 4);
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        logprobs: null,
        message: {
          role: 'assistant',
          content: answer.content,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}
