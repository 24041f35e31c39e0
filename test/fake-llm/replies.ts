/**
 * What the scripted LLM can be told to answer: one value per Chat Completions request.
 * Build them with the `reply` helpers so tests read like a conversation.
 */
import type { WireQuirks } from '../../llm-servers/chat-completions-wire';
import type { Hold, RequestMatch } from './holds';

/** One tool call the fake model makes. `arguments` objects are JSON-encoded on the wire. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

/** Token usage reported in the response; computed from text sizes when left out. */
export interface ScriptedUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A normal 200 answer: content and/or tool calls. */
export interface MessageReply {
  kind: 'message';
  content: string | null;
  toolCalls: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** How the answer strays from OpenAI's, like real servers do (cut, reasoning, no usage…). */
  quirks?: WireQuirks;
  delayMs?: number;
  /** Answer only once a request matching `hold.until` has arrived (see holds.ts). */
  hold?: Hold;
  /** Answer only once this settles: the test decides when a call in flight ends. */
  after?: Promise<unknown>;
  /**
   * Streamed: every chunk but the last (the `finish_reason`, then the usage and `[DONE]`) is
   * sent, and the stream ends only once this settles — so a test can see the text arrive
   * while the call is provably still running.
   */
  endAfter?: Promise<unknown>;
  /**
   * Cut the connection after this many chunks, without ending the stream (a server or network
   * dying mid-reply); a non-streamed request is cut before any answer. With `endAfter`, the cut
   * waits for it.
   */
  disconnectAfterChunks?: number;
  /** Streamed: the pause before each chunk after the first (the fake's `chunkDelayMs` otherwise). */
  chunkDelayMs?: number;
  /**
   * Streamed: after this many chunks the rest waits until `until` settles — a reply provably
   * half written while a test looks at it.
   */
  pauseAfterChunks?: { chunks: number; until: Promise<unknown> };
}

/** An HTTP error, e.g. 429 with Retry-After, 500, 400. */
export interface ErrorReply {
  kind: 'error';
  status: number;
  message: string;
  retryAfterSeconds?: number;
  delayMs?: number;
  /** Answer only once a request matching `hold.until` has arrived (see holds.ts). */
  hold?: Hold;
}

/** Never answers; the request stays open until the client gives up or the fake closes. */
export interface HangReply {
  kind: 'hang';
}

/** A 200 whose body is not JSON at all: a broken endpoint or proxy. */
export interface BrokenBodyReply {
  kind: 'broken-body';
}

export type ScriptedReply = MessageReply | ErrorReply | HangReply | BrokenBodyReply;

/** Helpers that build replies. */
export const reply = {
  /** Plain assistant text. */
  text(content: string, extra: Partial<Omit<MessageReply, 'kind' | 'content'>> = {}): MessageReply {
    return { kind: 'message', content, toolCalls: [], ...extra };
  },
  /** A JSON value as the message content (how the planner returns a plan). */
  json(value: unknown, extra: Partial<Omit<MessageReply, 'kind' | 'content'>> = {}): MessageReply {
    return reply.text(JSON.stringify(value), extra);
  },
  /** Content that looks like JSON but does not parse. */
  malformedJson(): MessageReply {
    return reply.text('{"task": "unfinished", "steps": [{"id": "s1", ');
  },
  /** Valid JSON that matches no schema of ours. */
  schemaBreakingJson(): MessageReply {
    return reply.json({ tasks: 'not a plan', steps: 'should be a list', replan: 42 });
  },
  /** One or more tool calls (ids default to call_1, call_2, ... in request order). */
  toolCalls(calls: ScriptedToolCall[], extra: Partial<Omit<MessageReply, 'kind' | 'toolCalls'>> = {}): MessageReply {
    return { kind: 'message', content: null, toolCalls: calls, ...extra };
  },
  /** A single tool call. */
  toolCall(name: string, args: unknown, id?: string): MessageReply {
    return reply.toolCalls([{ name, arguments: args, ...(id ? { id } : {}) }]);
  },
  /** Text cut at the token limit: `finish_reason: length`. */
  cut(content: string): MessageReply {
    return reply.text(content, { quirks: { finishReason: 'length' } });
  },
  /** An HTTP error status with an OpenAI-shaped error body. */
  error(status: number, message = `scripted error ${status}`): ErrorReply {
    return { kind: 'error', status, message };
  },
  /** 429 Too Many Requests with a Retry-After header. */
  rateLimited(retryAfterSeconds: number): ErrorReply {
    return { kind: 'error', status: 429, message: 'rate limited (scripted)', retryAfterSeconds };
  },
  hang(): HangReply {
    return { kind: 'hang' };
  },
  brokenBody(): BrokenBodyReply {
    return { kind: 'broken-body' };
  },
  /** `scripted`, answered only once `gate` settles (the test opens it when it has seen enough). */
  after(scripted: MessageReply, gate: Promise<unknown>): MessageReply {
    return { ...scripted, after: gate };
  },
  /** `scripted`, streamed `chunks` chunks, the rest only once `gate` settles (see MessageReply.pauseAfterChunks). */
  pauseAfter(scripted: MessageReply, chunks: number, gate: Promise<unknown>): MessageReply {
    return { ...scripted, pauseAfterChunks: { chunks, until: gate } };
  },
  /** `scripted`, its stream ended only once `gate` settles (see MessageReply.endAfter). */
  endAfter(scripted: MessageReply, gate: Promise<unknown>): MessageReply {
    return { ...scripted, endAfter: gate };
  },
  /** `scripted`, its connection cut after `chunks` chunks (see MessageReply.disconnectAfterChunks). */
  disconnectAfter(scripted: MessageReply, chunks: number): MessageReply {
    return { ...scripted, disconnectAfterChunks: chunks };
  },
  /**
   * `scripted`, answered only once a request matching `until` has arrived: proof that the
   * releasing request started before this call ended (holds.ts).
   */
  heldUntil<R extends MessageReply | ErrorReply>(scripted: R, until: RequestMatch, timeoutMs?: number): R {
    return { ...scripted, hold: { until, ...(timeoutMs !== undefined ? { timeoutMs } : {}) } };
  },
};

/** `scripted` with `text` written before its tool calls (what an approval's `why` quotes). */
export function said(text: string, scripted: MessageReply): MessageReply {
  return { ...scripted, content: text };
}
