/**
 * How many thread messages one principal may send in a minute: `POST /api/threads` (its first
 * message), `POST /api/threads/:id/messages` and the front door's `POST /v1/chat/completions`.
 * Each message runs a model call or a turn; a thread bounds what waits in it, but nothing else
 * bounds how fast one principal sends across threads. Past SENDS_PER_MINUTE in the last minute a
 * send is refused with 429 `SEND_RATE_LIMITED` (and `Retry-After`) before anything reaches a
 * thread. The clock is injected so tests move it instead of waiting.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ApiFailure } from './errors';
import type { Principal } from './auth/principal';

/** Thread messages one principal may send in any minute (docs/contracts.md#http-api). */
export const SENDS_PER_MINUTE = 30;

/** The window the limit counts over. */
const WINDOW_MS = 60_000;

/** Who sends are counted against: the principal within what authenticated it (ids of two realms may meet). */
const holderOf = (principal: Principal): string => `${principal.authenticatedBy}:${principal.id}`;

/** Counts each principal's sends over the last minute (a sliding window). */
export class SendRateLimiter {
  private readonly sent = new Map<string, number[]>();

  constructor(
    readonly perMinute = SENDS_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one send of `principal`: undefined when it may go, else the seconds until one may. */
  take(principal: Principal): number | undefined {
    const at = this.now();
    this.forgetBefore(at - WINDOW_MS);
    const holder = holderOf(principal);
    const times = this.sent.get(holder) ?? [];
    if (times.length >= this.perMinute) return Math.max(1, Math.ceil(((times[0] ?? at) + WINDOW_MS - at) / 1000));
    times.push(at);
    this.sent.set(holder, times);
    return undefined;
  }

  /** Drops sends older than `cutoff`, and holders left with none: the map holds only the last minute's senders. */
  private forgetBefore(cutoff: number): void {
    for (const [holder, times] of this.sent) {
      const kept = times.filter((t) => t > cutoff);
      if (kept.length > 0) this.sent.set(holder, kept);
      else this.sent.delete(holder);
    }
  }
}

/** The routes that send a thread message (a multipart form's too: the same paths). */
function sendsMessage(c: Context): boolean {
  if (c.req.method !== 'POST') return false;
  const path = c.req.path;
  return path === '/api/threads' || /^\/api\/threads\/[^/]+\/messages$/.test(path) || path === '/v1/chat/completions';
}

/** Refuses a principal's send past the limit with 429 SEND_RATE_LIMITED; after authentication. */
export function limitSends(limiter: SendRateLimiter): MiddlewareHandler {
  return async (c, next) => {
    if (sendsMessage(c)) {
      const wait = limiter.take(c.get('principal'));
      if (wait !== undefined) {
        c.header('Retry-After', String(wait));
        throw new ApiFailure(
          'SEND_RATE_LIMITED',
          `at most ${limiter.perMinute} thread messages a minute per principal; try again in ${wait} s`,
        );
      }
    }
    await next();
  };
}
