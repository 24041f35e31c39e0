/**
 * The one scripted LLM fake shared by every test and benchmark: a real HTTP server speaking
 * OpenAI Chat Completions (`POST /v1/chat/completions`), so the real `openai` client talks to
 * it over a socket. Tests program it as a queue of replies or a function of the request; it
 * records every request with its headers and time, holds a reply until a sibling request
 * arrives when told to (holds.ts), and fails loudly when its script runs out or a hold is
 * never released. A request with `stream: true` gets the same reply as server-sent
 * `chat.completion.chunk`s (llm-servers/chat-completions-stream.ts), paced when told to, its
 * end held or its connection cut mid-stream on demand; the fake can also play an endpoint that
 * cannot stream.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import {
  chatCompletion,
  errorBody,
  readChatRequest,
  sendJson,
  type ChatCompletionRequest,
} from '../../llm-servers/chat-completions-wire';
import {
  completionChunks,
  endEventStream,
  startEventStream,
  wantsUsage,
  writeChunk,
} from '../../llm-servers/chat-completions-stream';
import { callerOf, DEFAULT_HOLD_TIMEOUT_MS, describeMatch, HoldRegistry, type Hold } from './holds';
import { reply, type MessageReply, type ScriptedReply } from './replies';

/** A request the fake received. */
export interface RecordedRequest {
  /** 0-based order of arrival. */
  index: number;
  /** `Date.now()` when the request arrived. */
  receivedAt: number;
  /** `Date.now()` when the answer was sent (undefined while pending or for a hang). */
  answeredAt?: number;
  /**
   * How many requests had arrived when the answer was sent: those with a lower index came
   * before the answer, the rest after. An order with no clock in it, so no millisecond ties.
   */
  answeredBefore?: number;
  /** For a held reply: the index of the request whose arrival released it. */
  releasedBy?: number;
  /** `usage.total_tokens` of the answer, when it was a completion. */
  reportedTokens?: number;
  /** True when the answer went as a stream of chunks. */
  streamed?: boolean;
  /** `Date.now()` when a streamed answer's first chunk was sent. */
  firstChunkAt?: number;
  /** How many chunks of a streamed answer were sent. */
  chunksSent?: number;
  /** `Date.now()` when each chunk of a streamed answer was written, in order (for latency figures). */
  chunkSentAt?: number[];
  /** True when the fake cut the connection (`disconnectAfterChunks`). */
  disconnected?: boolean;
  /**
   * The message the fake answered with (its content as sent, `<think>` blocks included, and its
   * tool calls' ids and names); absent for errors, hangs and broken bodies.
   */
  replied?: { content: string | null; toolCalls: { id: string; name: string }[] };
  /** Lower-cased header names, as Node gives them. */
  headers: Record<string, string>;
  body: ChatCompletionRequest;
}

/** Decides the reply from the request; return undefined to fall through to the queue. */
export type ReplyFunction = (request: RecordedRequest) => ScriptedReply | undefined;

/**
 * What the fake does with `stream: true`: stream (`on`, like OpenAI), refuse it with a 400
 * naming `stream` (`refuse`), or answer with one JSON completion as if it had not been asked
 * (`ignore`) — both of the latter are endpoints that cannot stream.
 */
export type StreamingMode = 'on' | 'refuse' | 'ignore';

export interface ScriptedLlmOptions {
  /** Delay added before every answer (a reply's own `delayMs` wins). */
  latencyMs?: number;
  /** How `stream: true` is answered; `on` by default. */
  streaming?: StreamingMode;
  /** Streamed: the pause before each chunk after the first (a reply's own `chunkDelayMs` wins); 0 by default. */
  chunkDelayMs?: number;
  /** Streamed: characters of text or arguments per chunk (llm-servers/chat-completions-stream.ts). */
  chunkChars?: number;
}

/** The refusal of an endpoint that cannot stream, as such servers word it. */
export const STREAM_REFUSAL = "scripted-llm: 'stream' is not supported by this endpoint";

const SCRIPT_EXHAUSTED = 'scripted-llm: script exhausted';

/** A running fake; `baseUrl` is what OPENAI_BASE_URL should be set to. */
export class ScriptedLlm {
  readonly requests: RecordedRequest[] = [];
  /** Requests that arrived with nothing scripted for them (each also got an HTTP 400). */
  readonly unscripted: RecordedRequest[] = [];
  /** Holds that were never released, one message each (the reply was sent at the timeout). */
  readonly holdFailures: string[] = [];
  private readonly queue: ScriptedReply[] = [];
  private handler: ReplyFunction | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly waiters: { done: () => boolean; resolve: () => void }[] = [];
  private readonly holds = new HoldRegistry<RecordedRequest>();
  private closing = false;

  private constructor(
    private readonly server: Server,
    private readonly options: ScriptedLlmOptions,
  ) {}

  /** Starts a fake on a free loopback port. */
  static async start(options: ScriptedLlmOptions = {}): Promise<ScriptedLlm> {
    const server = createServer();
    const fake = new ScriptedLlm(server, options);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      fake.handle(req, res).catch((err: unknown) => {
        res.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    });
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** The OpenAI base URL of this fake (ends in `/v1`). */
  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  /** Appends replies to the queue, answered in order. */
  enqueue(...replies: ScriptedReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Answers every request with `fn`; where it returns undefined the queue is used. */
  respondWith(fn: ReplyFunction): this {
    this.handler = fn;
    return this;
  }

  /** Resolves once at least `count` requests have arrived. */
  async waitForRequests(count: number): Promise<void> {
    await this.waitFor(() => this.requests.length >= count);
  }

  /**
   * Resolves once a request of `route` (a purpose, or `step:<id>`, as `byRoute` keys them) has
   * arrived — what a test means when other calls (a thread's title) may come in any order.
   */
  async waitForRoute(route: string): Promise<void> {
    await this.waitFor(() => this.requests.some((r) => callerOf(r.headers) === route));
  }

  private async waitFor(done: () => boolean): Promise<void> {
    if (done()) return;
    await new Promise<void>((resolve) => this.waiters.push({ done, resolve }));
  }

  /** Requests whose `X-Cairn-Purpose` header is `purpose`. */
  requestsFor(purpose: string): RecordedRequest[] {
    return this.requests.filter((r) => r.headers['x-cairn-purpose'] === purpose);
  }

  /** What the model was told tool call `callId` returned: its tool message in the first request carrying one. */
  heardBack(callId: string): string | undefined {
    for (const request of this.requests) {
      const message = request.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
      if (message && typeof message.content === 'string') return message.content;
    }
    return undefined;
  }

  /**
   * Stops the server, cutting hanging requests and ending held ones. Throws if any request
   * went unscripted or any hold was never released, so such a test fails even when the
   * workflow swallowed the error.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.holds.abandon();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    const problems = [...this.holdFailures];
    if (this.unscripted.length > 0) {
      const purposes = this.unscripted.map((r) => `#${r.index} ${r.headers['x-cairn-purpose'] ?? '?'}`).join(', ');
      problems.unshift(`${SCRIPT_EXHAUSTED}: ${this.unscripted.length} request(s) had no scripted reply (${purposes})`);
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readChatRequest(req);
    if (!request) return sendJson(res, 404, errorBody(`scripted-llm: no route ${req.method} ${req.url}`));
    const { body, headers } = request;
    const recorded: RecordedRequest = { index: this.requests.length, receivedAt: Date.now(), headers, body };
    this.requests.push(recorded);
    this.wakeWaiters();
    this.holds.arrived(recorded);
    const streaming = this.options.streaming ?? 'on';
    if (body.stream === true && streaming === 'refuse') {
      return sendJson(
        res,
        400,
        errorBody(STREAM_REFUSAL, { type: 'invalid_request_error', code: 'unsupported_parameter' }),
      );
    }
    const scripted = this.handler?.(recorded) ?? unscriptedTitle(recorded) ?? this.queue.shift();
    if (!scripted) {
      this.unscripted.push(recorded);
      const message = `${SCRIPT_EXHAUSTED} at request #${recorded.index}`;
      process.stderr.write(`${message} (purpose ${recorded.headers['x-cairn-purpose'] ?? '?'})\n`);
      return sendJson(res, 400, errorBody(message, { type: 'invalid_request_error', code: 'script_exhausted' }));
    }
    if (scripted.kind === 'hang') return; // the socket stays open until the client or close() ends it
    if ('hold' in scripted && scripted.hold) await this.awaitRelease(recorded, scripted.hold);
    if (scripted.kind === 'message' && scripted.after) await scripted.after;
    const delay = ('delayMs' in scripted ? scripted.delayMs : undefined) ?? this.options.latencyMs ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const streamed = body.stream === true && streaming === 'on' && scripted.kind === 'message';
    // A stream is answered when it ends (stream()).
    if (!streamed) {
      recorded.answeredAt = Date.now();
      recorded.answeredBefore = this.requests.length;
    }
    switch (scripted.kind) {
      case 'broken-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "chatcmpl-broken", "choices": [');
        return;
      case 'error': {
        const headers: Record<string, string> = {};
        if (scripted.retryAfterSeconds !== undefined) headers['retry-after'] = String(scripted.retryAfterSeconds);
        return sendJson(res, scripted.status, errorBody(scripted.message, { type: 'scripted' }), headers);
      }
      case 'message': {
        const body = completion(recorded, scripted);
        recorded.reportedTokens = body.usage?.total_tokens;
        const message = body.choices[0]?.message;
        recorded.replied = {
          content: message?.content ?? null,
          toolCalls: (message?.tool_calls ?? []).flatMap((c) =>
            c.type === 'function' ? [{ id: c.id, name: c.function.name }] : [],
          ),
        };
        if (streamed) return this.stream(res, recorded, scripted, body);
        if (scripted.disconnectAfterChunks !== undefined) {
          recorded.disconnected = true;
          res.destroy();
          return;
        }
        return sendJson(res, 200, body);
      }
    }
  }

  /** Sends `body` as a stream of chunks, paced, its end held or its connection cut as scripted. */
  private async stream(
    res: ServerResponse,
    recorded: RecordedRequest,
    scripted: MessageReply,
    body: ChatCompletion,
  ): Promise<void> {
    const chunks = completionChunks(body, {
      includeUsage: wantsUsage(recorded.body),
      ...(this.options.chunkChars !== undefined ? { chunkChars: this.options.chunkChars } : {}),
    });
    const pace = scripted.chunkDelayMs ?? this.options.chunkDelayMs ?? 0;
    // The finish_reason chunk and what follows it end the reply: held back while `endAfter` holds.
    const last = chunks.findIndex((c) => c.choices[0]?.finish_reason);
    recorded.streamed = true;
    recorded.chunksSent = 0;
    recorded.chunkSentAt = [];
    startEventStream(res);
    for (const [index, chunk] of chunks.entries()) {
      if (scripted.disconnectAfterChunks !== undefined && index >= scripted.disconnectAfterChunks) {
        // With `endAfter` too, the cut is what waits: a test sees the partial text before it.
        if (scripted.endAfter) await scripted.endAfter;
        // What was sent reaches the client first; then the connection dies without the stream's end.
        await new Promise((resolve) => res.write('', resolve));
        recorded.disconnected = true;
        res.destroy();
        return;
      }
      if (index === last && scripted.endAfter) await scripted.endAfter;
      if (index === scripted.pauseAfterChunks?.chunks) await scripted.pauseAfterChunks.until;
      if (index > 0 && pace > 0) await new Promise((resolve) => setTimeout(resolve, pace));
      if (res.destroyed) return; // the client gave up (its timeout, a cancellation)
      writeChunk(res, chunk);
      const at = Date.now();
      if (index === 0) recorded.firstChunkAt = at;
      recorded.chunkSentAt.push(at);
      recorded.chunksSent += 1;
    }
    recorded.answeredAt = Date.now();
    recorded.answeredBefore = this.requests.length;
    endEventStream(res);
  }

  /** Waits for `hold` to be released; a hold that never is becomes a recorded failure. */
  private async awaitRelease(request: RecordedRequest, hold: Hold): Promise<void> {
    const releasedBy = await this.holds.wait(request, hold, this.requests);
    if (releasedBy) {
      request.releasedBy = releasedBy.index;
      return;
    }
    const held = `${callerOf(request.headers)}'s reply (request #${request.index}) was held`;
    const message = this.closing
      ? `scripted-llm: ${held} for ${describeMatch(hold.until)} until the fake closed`
      : `scripted-llm: ${describeMatch(hold.until)} never arrived while ${held} ` +
        `(${hold.timeoutMs ?? DEFAULT_HOLD_TIMEOUT_MS} ms)`;
    this.holdFailures.push(message);
    process.stderr.write(`${message}\n`);
  }

  private wakeWaiters(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i];
      if (waiter?.done()) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}

/** The completion for a scripted message; tool call ids default to `call_<request>_<n>`. */
function completion(request: RecordedRequest, scripted: MessageReply): ChatCompletion {
  const toolCalls = scripted.toolCalls.map((call, i) => ({ ...call, id: call.id ?? `call_${request.index}_${i + 1}` }));
  return chatCompletion(`chatcmpl-scripted-${request.index}`, request.body.model, request.body, {
    content: scripted.content,
    toolCalls,
    ...(scripted.usage ? { usage: scripted.usage } : {}),
    ...(scripted.quirks ? { quirks: scripted.quirks } : {}),
  });
}

/**
 * A thread's `title` call that the test did not script: answered with the first message itself
 * (its first line, at most 80 characters — what the thread shows before and without a title), so
 * every thread test need not script the call it makes after its first message. Tests of titles
 * script their own (a `title` route of `byRoute`, or a reply function).
 */
function unscriptedTitle(request: RecordedRequest): MessageReply | undefined {
  if (request.headers['x-cairn-purpose'] !== 'title') return undefined;
  const first = request.body.messages.at(-1)?.content;
  const line = (typeof first === 'string' ? first : '').trim().split('\n')[0] ?? '';
  return reply.text(line.length > 80 ? `${line.slice(0, 79)}…` : line);
}
