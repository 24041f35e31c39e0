/**
 * `GET /api/agents/:id/events` (docs/contracts.md#server-sent-events): the agent's timeline as server-sent events, one
 * frame per event (`id: <seq>`, `event: <type>`, `data: <json>`), resumable from the
 * `Last-Event-ID` header (or `?lastEventId=`), a heartbeat comment while quiet, ending when the
 * agent ends. It reads the state query with the sequence cursor, so nothing is sent twice: often
 * while the agent's live stream moves and after this server passes it an answer, seldom while it
 * is quiet (timeline-wakes.ts); the streams of one agent share their reads (stream-state-reads.ts). A poll no worker answered
 * (`AGENT_UNAVAILABLE`) is tried again while the stream stays open. Each stream holds a place of
 * the stream limiter (stream-limiter.ts) from before its first read to its end: past the limits,
 * 429 `TOO_MANY_STREAMS`.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { AgentEvent } from '../../../workflows/model/agent/agent-state';
import { ClientError } from '../../client-error';
import { followTimeline, pause } from '../follow-timeline';
import type { AgentsPort } from '../agents-port';
import { SharedStateReads } from '../stream-state-reads';
import type { TimelineWakes } from '../timeline-wakes';
import { openStreamLease, type StreamLimiter } from '../../http/stream-limiter';
import { AgentIdParams, ErrorBody, EventsHeaders, EventsQuery } from '../../http/schemas';

/** Timing of the stream; tests shorten it. */
export interface EventStreamTiming {
  /** How often the state is read for new events while the agent is busy, or always without a live hub (ms). */
  pollMs: number;
  /** How often it is read while the agent's live stream is quiet (ms; timeline-wakes.ts). */
  idleMs: number;
  /** How often a comment is sent while nothing happens, so proxies keep the stream open (ms). */
  heartbeatMs: number;
}

/** The defaults: read twice a second while busy, every 2 s while quiet; heartbeat every 15 s. */
export const defaultEventTiming: EventStreamTiming = { pollMs: 500, idleMs: 2_000, heartbeatMs: 15_000 };

const eventsRoute = createRoute({
  method: 'get',
  path: '/api/agents/{id}/events',
  summary: "The agent's timeline as server-sent events, resumable with Last-Event-ID",
  request: { params: AgentIdParams, query: EventsQuery, headers: EventsHeaders },
  responses: {
    200: {
      description: 'One frame per timeline event: `id: <seq>`, `event: <type>`, `data: <event JSON>`',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    400: { description: 'Invalid cursor (INVALID_INPUT)', content: { 'application/json': { schema: ErrorBody } } },
    404: { description: 'No such agent (NOT_FOUND)', content: { 'application/json': { schema: ErrorBody } } },
    429: {
      description: 'The principal, or the server, holds as many open streams as allowed (TOO_MANY_STREAMS)',
      content: { 'application/json': { schema: ErrorBody } },
    },
  },
});

/** One SSE frame for a timeline event. */
export function eventFrame(event: AgentEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Registers the events route on `app`; its streams count against `limiter`, and read when
 * `wakes` says (every `pollMs` without it).
 */
export function registerEventRoutes(
  app: OpenAPIHono,
  agents: AgentsPort,
  timing: EventStreamTiming,
  limiter: StreamLimiter,
  wakes: TimelineWakes | undefined,
): void {
  const reads = new SharedStateReads((id, after) => agents.state(id, after), timing.pollMs);
  app.openapi(eventsRoute, async (c) => {
    const { id } = c.req.valid('param');
    const cursor = c.req.valid('header')['last-event-id'] ?? c.req.valid('query').lastEventId ?? 0;
    const lease = openStreamLease(c, limiter);
    let first;
    try {
      // Read once before opening the stream, so an unknown agent is a plain 404.
      first = await reads.state(id, cursor);
    } catch (err) {
      lease.release();
      throw err;
    }
    return streamSSE(c, async (stream) => {
      const stop = new AbortController();
      stream.onAbort(() => {
        stop.abort();
        lease.release();
      });
      const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n'), timing.heartbeatMs);
      const woken = wakes?.follow(id);
      try {
        const read = (after: number) => answered(() => reads.state(id, after), timing.pollMs, stop.signal);
        const following = {
          afterSeq: cursor,
          intervalMs: timing.pollMs,
          signal: stop.signal,
          first,
          ...(woken ? { waitNext: woken.waitNext } : {}),
        };
        for await (const state of followTimeline(read, following)) {
          for (const event of state.events) await stream.write(eventFrame(event));
        }
      } catch (err) {
        await stream.write(errorFrame(err));
      } finally {
        clearInterval(heartbeat);
        woken?.stop();
        lease.release();
      }
    });
  });
}

/**
 * `read()`'s state, trying again every `waitMs` while no worker answers (`AGENT_UNAVAILABLE`):
 * busy or restarting workers delay the stream, they do not end it. Other errors, and any error
 * once `signal` aborted, are thrown.
 */
async function answered<T>(read: () => Promise<T>, waitMs: number, signal: AbortSignal): Promise<T> {
  for (;;) {
    try {
      return await read();
    } catch (err) {
      if (!(err instanceof ClientError && err.code === 'AGENT_UNAVAILABLE') || signal.aborted) throw err;
    }
    await pause(waitMs, signal);
  }
}

/** A final `error` frame when reading the state fails mid-stream. */
function errorFrame(err: unknown): string {
  const code = err instanceof ClientError ? err.code : 'INTERNAL';
  const message = err instanceof Error ? err.message : String(err);
  return `event: error\ndata: ${JSON.stringify({ error: { code, message } })}\n\n`;
}
