/**
 * Serves the offline demo model as a real OpenAI-compatible endpoint on loopback, so with no
 * LLM configured the worker still goes through the `openai` client exactly as in production.
 * A streamed answer comes as a real model's does: reasoning first on its own channel
 * (`reasoning_content`), then the text a few words per chunk, a few chunks every 50 ms.
 * The worker starts it (worker/create-worker.ts); it is a server, not an activity.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { chatCompletion, errorBody, readChatRequest, sendJson, type AssistantAnswer } from '../chat-completions-wire';
import {
  completionChunks,
  endEventStream,
  startEventStream,
  wantsStream,
  wantsUsage,
  writeChunk,
} from '../chat-completions-stream';
import { DEMO_MODEL, demoReply, type DemoReply } from './demo-replies';

/** Words per streamed piece of text. */
const WORDS_PER_CHUNK = 3;
/** Characters per streamed piece of a tool call's arguments. */
const ARGUMENT_CHARS = 24;
/** Pause between streamed pieces: a few every 50 ms. */
const CHUNK_PAUSE_MS = 15;
/** Most pauses in one answer: a long one sends several pieces at a time, so none takes more than a moment. */
const MAX_PAUSES = 40;

export interface DemoServer {
  baseUrl: string;
  close: () => Promise<void>;
}

/** A demo reply as the wire's answer: its text and tool calls, its reasoning as `reasoning_content`. */
export function answerOf(reply: DemoReply): AssistantAnswer {
  return {
    content: reply.content ?? null,
    toolCalls: reply.toolCalls ?? [],
    ...(reply.reasoning !== undefined ? { quirks: { reasoningContent: reply.reasoning } } : {}),
  };
}

/** Streams `completion` paced like a model that writes as it thinks; stops if the client goes. */
async function sendPaced(res: ServerResponse, completion: ChatCompletion, includeUsage: boolean): Promise<void> {
  const chunks = completionChunks(completion, {
    includeUsage,
    wordsPerChunk: WORDS_PER_CHUNK,
    chunkChars: ARGUMENT_CHARS,
  });
  const perPause = Math.ceil(chunks.length / MAX_PAUSES);
  startEventStream(res);
  for (const [index, chunk] of chunks.entries()) {
    if (index > 0 && index % perPause === 0) await new Promise((resolve) => setTimeout(resolve, CHUNK_PAUSE_MS));
    if (res.destroyed) return;
    writeChunk(res, chunk);
  }
  endEventStream(res);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = await readChatRequest(req);
  if (!request) return sendJson(res, 404, errorBody('not found'));
  const reply = demoReply(request.body, request.headers);
  const completion = chatCompletion(`demo-${Date.now()}`, DEMO_MODEL, request.body, answerOf(reply));
  // Streamed like a real endpoint when asked, so a worker on the demo model streams too.
  if (wantsStream(request.body)) return sendPaced(res, completion, wantsUsage(request.body));
  sendJson(res, 200, completion);
}

/** Starts the demo endpoint on a free loopback port. */
export async function startDemoServer(): Promise<DemoServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, errorBody('demo model failed'));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
