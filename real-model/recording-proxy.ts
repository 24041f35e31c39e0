/**
 * A loopback HTTP proxy in front of llama-server that records every exchange Cairn's worker
 * has with the model: the `X-Cairn-*` headers (purpose, agent, step), what the request asked
 * (max_tokens, response_format, tools) and what came back (status, finish_reason, usage, an
 * error's text), from a streamed answer's chunks as from a whole one. Bodies pass through
 * untouched, chunk by chunk as they come (a stream stays live), and a request the worker gives
 * up on (its LLM timeout) is given up on upstream too, so the server behind it sees exactly what
 * Cairn does.
 * Every exchange is also appended in full to a JSON Lines file for a look after the run.
 */
import { appendFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { z } from 'zod';
import { checkConversation } from './conversation-check';

/** One request and its answer, as the checks read them. */
export interface Exchange {
  /** ms since the proxy started. */
  at: number;
  durationMs: number;
  purpose?: string;
  agent?: string;
  step?: string;
  path: string;
  /** The HTTP status; 0 when the worker hung up first. */
  status: number;
  maxTokens?: number;
  responseFormat?: string;
  tools: number;
  messages: number;
  finishReason?: string;
  completionTokens?: number;
  promptTokens?: number;
  toolCalls: number;
  /** Tool calls in the conversation the request sent (earlier rounds' calls). */
  conversationToolCalls: number;
  /** Where the request's conversation breaks the protocol (real-model/conversation-check.ts). */
  conversationFaults: string[];
  /** The server's error message for a non-2xx answer. */
  error?: string;
  /** True when the answer came as a stream of chunks (`stream: true`). */
  streamed?: boolean;
  /** How many chunks a streamed answer had. */
  chunks?: number;
}

const requestSchema = z.looseObject({
  max_tokens: z.number().optional(),
  max_completion_tokens: z.number().optional(),
  response_format: z.looseObject({ type: z.string() }).optional(),
  tools: z.array(z.unknown()).optional(),
  messages: z.array(z.unknown()).optional(),
});

const responseSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        finish_reason: z.string().nullable().optional(),
        message: z.looseObject({ tool_calls: z.array(z.unknown()).nullable().optional() }).optional(),
      }),
    )
    .optional(),
  usage: z.looseObject({ completion_tokens: z.number(), prompt_tokens: z.number() }).optional(),
  error: z.looseObject({ message: z.string() }).optional(),
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** What the request body asked for. */
function describeRequest(
  body: string,
): Pick<
  Exchange,
  'maxTokens' | 'responseFormat' | 'tools' | 'messages' | 'conversationToolCalls' | 'conversationFaults'
> {
  const parsed = requestSchema.safeParse(parseJson(body));
  if (!parsed.success) return { tools: 0, messages: 0, conversationToolCalls: 0, conversationFaults: [] };
  const r = parsed.data;
  const maxTokens = r.max_completion_tokens ?? r.max_tokens;
  const conversation = checkConversation(r.messages ?? []);
  return {
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(r.response_format ? { responseFormat: r.response_format.type } : {}),
    tools: r.tools?.length ?? 0,
    messages: r.messages?.length ?? 0,
    conversationToolCalls: conversation.toolCalls,
    conversationFaults: conversation.faults,
  };
}

const chunkSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        finish_reason: z.string().nullable().optional(),
        delta: z
          .looseObject({ tool_calls: z.array(z.looseObject({ index: z.number().optional() })).optional() })
          .optional(),
      }),
    )
    .optional(),
  usage: z.looseObject({ completion_tokens: z.number(), prompt_tokens: z.number() }).nullable().optional(),
  error: z.looseObject({ message: z.string() }).optional(),
});

/**
 * A streamed answer (`data: <chunk>` events) read as the one completion it adds up to: the last
 * finish_reason, the usage, each tool call once, an error event's message.
 */
export function readStreamedBody(body: string): { answer: unknown; chunks: number } | undefined {
  const events = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((data) => data !== '[DONE]');
  if (events.length === 0) return undefined;
  let finishReason: string | undefined;
  let usage: unknown;
  let error: unknown;
  const calls = new Set<number>();
  for (const data of events) {
    const chunk = chunkSchema.safeParse(parseJson(data));
    if (!chunk.success) continue;
    if (chunk.data.usage) usage = chunk.data.usage;
    if (chunk.data.error) error = chunk.data.error;
    for (const choice of chunk.data.choices ?? []) {
      if (choice.finish_reason) finishReason = choice.finish_reason;
      for (const call of choice.delta?.tool_calls ?? []) calls.add(call.index ?? calls.size);
    }
  }
  const message = { tool_calls: [...calls].map(() => ({})) };
  const answer = {
    choices: [{ finish_reason: finishReason ?? null, message }],
    ...(usage ? { usage } : {}),
    ...(error ? { error } : {}),
  };
  return { answer, chunks: events.length };
}

/** What came back, whole or streamed. */
export function describeResponse(
  body: string,
): Pick<
  Exchange,
  'finishReason' | 'completionTokens' | 'promptTokens' | 'toolCalls' | 'error' | 'streamed' | 'chunks'
> {
  const streamed = parseJson(body) === undefined ? readStreamedBody(body) : undefined;
  if (streamed) return { ...describeAnswer(streamed.answer, body), streamed: true, chunks: streamed.chunks };
  return describeAnswer(parseJson(body), body);
}

function describeAnswer(
  answer: unknown,
  body: string,
): Pick<Exchange, 'finishReason' | 'completionTokens' | 'promptTokens' | 'toolCalls' | 'error'> {
  const parsed = responseSchema.safeParse(answer);
  if (!parsed.success) return { toolCalls: 0, error: body.slice(0, 300) };
  const r = parsed.data;
  const choice = r.choices?.[0];
  return {
    ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
    ...(r.usage ? { completionTokens: r.usage.completion_tokens, promptTokens: r.usage.prompt_tokens } : {}),
    toolCalls: choice?.message?.tool_calls?.length ?? 0,
    ...(r.error ? { error: r.error.message } : {}),
  };
}

/** The proxy: its base URL for OPENAI_BASE_URL, and what it saw. */
export class RecordingProxy {
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    /** Every exchange so far, in the order they ended. */
    readonly exchanges: Exchange[],
  ) {}

  /** Listens on 127.0.0.1:`port`, forwarding to `upstream` (an origin), logging bodies to `logFile`. */
  static async start(upstream: string, port: number, logFile: string): Promise<RecordingProxy> {
    const started = performance.now();
    const target = new URL(upstream);
    const exchanges: Exchange[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const begin = performance.now();
        const base = {
          at: Math.round(begin - started),
          path: req.url ?? '',
          ...optional('purpose', header(req, 'x-cairn-purpose')),
          ...optional('agent', header(req, 'x-cairn-agent')),
          ...optional('step', header(req, 'x-cairn-step')),
          ...describeRequest(body),
        };
        let recorded = false; // the first ending counts: a hang-up, then the aborted upstream's error
        const record = (status: number, answer: string) => {
          if (recorded) return;
          recorded = true;
          const exchange: Exchange = {
            ...base,
            durationMs: Math.round(performance.now() - begin),
            status,
            ...(status === 0 ? { toolCalls: 0, error: 'the worker hung up first' } : describeResponse(answer)),
          };
          exchanges.push(exchange);
          appendFileSync(logFile, `${JSON.stringify({ ...exchange, request: parseJson(body), response: answer })}\n`);
        };
        const upstreamReq = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: target.host },
          },
          (upstreamRes) => {
            const answer: Buffer[] = [];
            // Passed on as it comes: a streamed answer reaches the worker chunk by chunk.
            res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
            upstreamRes.on('data', (c: Buffer) => {
              answer.push(c);
              res.write(c);
            });
            upstreamRes.on('end', () => {
              const text = Buffer.concat(answer).toString('utf8');
              record(upstreamRes.statusCode ?? 0, text);
              res.end();
            });
          },
        );
        upstreamReq.on('error', (err) => {
          if (res.destroyed) return;
          record(502, JSON.stringify({ error: { message: `proxy: ${err.message}` } }));
          // Cut mid-answer: the worker sees the connection die, as it would without the proxy.
          if (res.headersSent) return void res.destroy();
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `proxy: ${err.message}` } }));
        });
        // The worker's LLM timeout or a cancellation: stop the generation behind it as well.
        res.on('close', () => {
          if (res.writableFinished) return;
          record(0, '');
          upstreamReq.destroy();
        });
        upstreamReq.end(body);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return new RecordingProxy(server, `http://127.0.0.1:${port}/v1`, exchanges);
  }

  /** Stops listening and drops open connections. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
