/**
 * A non-streamed answer must reach the client before the client gives up: an OpenAI SDK that
 * times out retries, and a retry sends the same text again as a new message. The official SDKs
 * say how long they wait — `X-Stainless-Timeout` (Node, whole seconds) or
 * `X-Stainless-Read-Timeout` (Python, seconds) — and the front door answers a little before
 * that with what it has: the turn still running, and where its answer will be. A client that
 * announces none (the Node SDK announces only a per-request timeout) is taken to wait as long as
 * the SDKs do by default, 10 minutes. What a client announces is the client's to say, but not how
 * long the server holds the request: at most 15 minutes, in whole milliseconds, however large or
 * fractional the header.
 */
import { z } from 'zod';
import type { Turn } from '../../../workflows/contract/thread-contract';

/** The headers that announce the client's timeout, in the order they are read. */
export const CLIENT_TIMEOUT_HEADERS = ['x-stainless-timeout', 'x-stainless-read-timeout'] as const;

const secondsSchema = z.coerce.number().positive();

/** The OpenAI SDKs' default timeout, assumed when a client announces none. */
const DEFAULT_CLIENT_TIMEOUT_S = 600;

/** The longest client timeout heeded: a request is never held longer than this. */
export const MAX_CLIENT_TIMEOUT_S = 15 * 60;

/** The answer leaves this long before the client's timeout: a tenth of it, at most 10 s. */
const MAX_MARGIN_MS = 10_000;
/** The least time an answer is given, however short the client's timeout. */
const MIN_WAIT_MS = 1_000;

/**
 * How long the answer may take (whole ms): a little less than the client's announced timeout
 * (at most MAX_CLIENT_TIMEOUT_S), or the default.
 */
export function answerWithinMs(headers: Headers): number {
  const announced = CLIENT_TIMEOUT_HEADERS.map((name) => secondsSchema.safeParse(headers.get(name) ?? undefined)).find(
    (parsed) => parsed.success,
  );
  const ms = Math.min(announced?.data ?? DEFAULT_CLIENT_TIMEOUT_S, MAX_CLIENT_TIMEOUT_S) * 1000;
  return Math.floor(Math.max(MIN_WAIT_MS, ms - Math.min(MAX_MARGIN_MS, ms / 10)));
}

/** The request's end: the client going away, or the time it may take running out. */
export function answerSignal(request: Request): AbortSignal {
  return AbortSignal.any([request.signal, AbortSignal.timeout(answerWithinMs(request.headers))]);
}

/** The content of an answer that had to go before its turn settled. */
export function unfinishedText(threadId: string, turn: Turn): string {
  const agent = turn.agentId ? `, agent ${turn.agentId}` : '';
  return (
    `Still working on it (the turn is ${turn.status}${agent}). Its answer will be in thread ${threadId}: ` +
    `read it there (GET /api/threads/${threadId}), or send your next message with the X-Cairn-Thread header.`
  );
}
