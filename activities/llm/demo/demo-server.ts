/**
 * Serves the offline demo model as a real OpenAI-compatible endpoint on loopback, so with no
 * LLM configured the worker still goes through the `openai` client exactly as in production.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { DEMO_MODEL, demoReply } from './demo-replies';

export interface DemoServer {
  baseUrl: string;
  close: () => Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function completion(request: ChatCompletionCreateParamsNonStreaming, headers: Record<string, string>): ChatCompletion {
  const reply = demoReply(request, headers);
  const toolCalls =
    'toolCalls' in reply
      ? reply.toolCalls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        }))
      : [];
  const content = 'content' in reply ? reply.content : null;
  const promptTokens = Math.ceil(JSON.stringify(request.messages).length / 4);
  const completionTokens = Math.ceil(JSON.stringify(reply).length / 4);
  return {
    id: `demo-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: DEMO_MODEL,
    choices: [
      {
        index: 0,
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
        logprobs: null,
        message: { role: 'assistant', content, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await body(req);
  if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
    return;
  }
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
  const answer = completion(JSON.parse(raw) as ChatCompletionCreateParamsNonStreaming, headers);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
}

/** Starts the demo endpoint on a free loopback port. */
export async function startDemoServer(): Promise<DemoServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end('{"error":{"message":"demo model failed"}}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
