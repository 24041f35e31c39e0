/**
 * Serves the offline demo model as a real OpenAI-compatible endpoint on loopback, so with no
 * LLM configured the worker still goes through the `openai` client exactly as in production.
 * The worker starts it (worker/create-worker.ts); it is a server, not an activity.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatCompletion, errorBody, readChatRequest, sendJson, type AssistantAnswer } from '../chat-completions-wire';
import { sendStreamed, wantsStream, wantsUsage } from '../chat-completions-stream';
import { DEMO_MODEL, demoReply } from './demo-replies';

export interface DemoServer {
  baseUrl: string;
  close: () => Promise<void>;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = await readChatRequest(req);
  if (!request) return sendJson(res, 404, errorBody('not found'));
  const reply = demoReply(request.body, request.headers);
  const answer: AssistantAnswer =
    'toolCalls' in reply ? { content: null, toolCalls: reply.toolCalls } : { content: reply.content, toolCalls: [] };
  const completion = chatCompletion(`demo-${Date.now()}`, DEMO_MODEL, request.body, answer);
  // Streamed like a real endpoint when asked, so a worker on the demo model streams too.
  if (wantsStream(request.body)) return sendStreamed(res, completion, { includeUsage: wantsUsage(request.body) });
  sendJson(res, 200, completion);
}

/** Starts the demo endpoint on a free loopback port. */
export async function startDemoServer(): Promise<DemoServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => sendJson(res, 500, errorBody('demo model failed')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
