/**
 * How many streams the HTTP server holds open (client/http/stream-limiter.ts): per principal and
 * in total, from CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL and CAIRN_HTTP_MAX_STREAMS, checked like
 * the rest of the configuration.
 */
import { z } from 'zod';

/** The two limits. */
export interface StreamLimits {
  /** Streams one principal may hold open at once. */
  perPrincipal: number;
  /** Streams the server holds open at once, for everyone together. */
  total: number;
}

/** The defaults: a person's tabs and scripts fit; a hundred streams polling state keep a core busy. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { perPrincipal: 10, total: 100 };

const streams = z.coerce
  .number({ error: 'expected a number of streams' })
  .int('expected a whole number')
  .positive('expected a number above 0')
  .max(100_000, 'expected at most 100000');

/** The variables, merged into config.ts's schema. */
export const streamLimitsEnvShape = {
  /** Streams (the events route, and later streamed routes) one principal may hold open at once. */
  CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL: streams.optional(),
  /** Streams the HTTP server holds open at once, for everyone together. */
  CAIRN_HTTP_MAX_STREAMS: streams.optional(),
};

/** The limits, the defaults filling what is not set; one principal's may not exceed everyone's. */
export function streamLimits(e: {
  CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL?: number | undefined;
  CAIRN_HTTP_MAX_STREAMS?: number | undefined;
}): StreamLimits | { problem: string } {
  const perPrincipal = e.CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL;
  const total = e.CAIRN_HTTP_MAX_STREAMS;
  const limits = {
    perPrincipal: perPrincipal ?? Math.min(DEFAULT_STREAM_LIMITS.perPrincipal, total ?? Infinity),
    total: total ?? Math.max(DEFAULT_STREAM_LIMITS.total, perPrincipal ?? 0),
  };
  if (limits.perPrincipal <= limits.total) return limits;
  return {
    problem: `CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL: expected at most CAIRN_HTTP_MAX_STREAMS (${limits.total}), got ${limits.perPrincipal}`,
  };
}
