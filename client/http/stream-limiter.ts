/**
 * How many long-lived streams the server holds open: per principal and in total. A stream holds
 * a connection, a heartbeat timer and a share of the state reads for as long as its client
 * stays; without a limit one viewer opened 100 event streams and cost the server some 1.2 cores.
 * Past either limit a new stream is refused with 429 `TOO_MANY_STREAMS` (and `Retry-After`)
 * before it opens; one that ends, for whatever reason, gives its place back.
 *
 * One limiter counts every streaming route together — the events and live-stream routes, and the
 * front door's requests, streamed or not (each holds its connection and polls while it waits) —
 * each taking a lease (`openStreamLease`) before it starts.
 */
import type { Context } from 'hono';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from '../../config/stream-limits';
import { ApiFailure } from './errors';
import type { Principal } from './auth/principal';

/**
 * Frames (chunks, events) a stream's client may fall behind by: past it the server stops queuing
 * for it and lets it go, so a slow reader cannot make the server hold an ever longer queue.
 */
export const MAX_QUEUED_FRAMES = 10_000;

/** Seconds a refused client is told to wait before it tries again. */
export const STREAM_RETRY_AFTER_SECONDS = 5;

/** One open stream's place; `release()` gives it back (once, however often it is called). */
export interface StreamLease {
  release(): void;
}

/** Who a stream is counted against: the principal, within what authenticated it (ids of two realms may meet). */
const holderOf = (principal: Principal): string => `${principal.authenticatedBy}:${principal.id}`;

/** Counts open streams per holder and in all. */
export class StreamLimiter {
  private readonly open = new Map<string, number>();
  private total = 0;

  constructor(readonly limits: StreamLimits = DEFAULT_STREAM_LIMITS) {}

  /** Streams open now, in all and for `principal`. */
  count(principal?: Principal): number {
    return principal ? (this.open.get(holderOf(principal)) ?? 0) : this.total;
  }

  /** A lease for one more stream of `principal`, or why not. */
  acquire(principal: Principal): StreamLease | { refused: string } {
    const holder = holderOf(principal);
    const held = this.open.get(holder) ?? 0;
    if (held >= this.limits.perPrincipal) {
      return { refused: `${principal.id} already holds ${held} open streams (at most ${this.limits.perPrincipal})` };
    }
    if (this.total >= this.limits.total) {
      return { refused: `the server already holds ${this.total} open streams (at most ${this.limits.total})` };
    }
    this.open.set(holder, held + 1);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const left = (this.open.get(holder) ?? 1) - 1;
        if (left > 0) this.open.set(holder, left);
        else this.open.delete(holder);
      },
    };
  }
}

/**
 * The lease for a stream the request is about to open, for the authenticated principal; throws
 * 429 `TOO_MANY_STREAMS` (with `Retry-After`) when a limit is reached. Take it before anything
 * is sent, and release it when the stream ends.
 */
export function openStreamLease(c: Context, limiter: StreamLimiter): StreamLease {
  const lease = limiter.acquire(c.get('principal'));
  if ('refused' in lease) {
    c.header('Retry-After', String(STREAM_RETRY_AFTER_SECONDS));
    throw new ApiFailure('TOO_MANY_STREAMS', `${lease.refused}; close one, or try again later`);
  }
  return lease;
}
