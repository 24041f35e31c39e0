/**
 * `GET /api/agents/:id/stream` (docs/contracts.md#live-output): what the agent's model calls say
 * as they stream, as server-sent events — `delta`, `call.started`, `call.finished`,
 * `call.superseded`, each with `id: <stream offset>`; resumable with `Last-Event-ID` (or
 * `?lastEventId=`); without one it starts at the oldest retained item; an offset no longer
 * retained gets `event: reset` (`{ from }`, then the events from there on: read the transcript
 * for what was dropped). 200 as soon as the agent exists, whether or not anything streams yet;
 * the stream ends with `event: end` after the last `call.finished` once the agent is final.
 *
 * `GET /api/threads/:id/stream` is the same for a thread's own model calls (`chat`,
 * `route-message`; each delta names its `messageId`): 200 as soon as the thread exists; it stays
 * open, with heartbeats, while the thread does, and ends with `event: end` once the thread has
 * closed (the closing thread tells its stream). A task turn's model calls are on its agent's stream.
 *
 * Every client of an agent (or thread) on this server shares one subscription
 * (client/live/live-hub.ts). Its streams count against the server's one stream limiter
 * (429 TOO_MANY_STREAMS) with the events route's.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { ClientError } from '../../client-error';
import type { LiveHub } from '../live-hub';
import type { LiveEvent } from '../live-events';
import { MAX_QUEUED_FRAMES, openStreamLease, type StreamLimiter } from '../../http/stream-limiter';
import { AgentIdParams, ErrorBody, EventsHeaders, EventsQuery } from '../../http/schemas';
import { AGENT_KIND, THREAD_KIND, type WorkflowKind } from '../../workflow-kind-guard';
import { ThreadIdParams } from '../../threads/thread-requests';

/** Timing of the stream; tests shorten it. */
export interface LiveStreamTiming {
  /** How often a comment is sent while nothing happens, so proxies keep the stream open (ms). */
  heartbeatMs: number;
}

const streamRoute = createRoute({
  method: 'get',
  path: '/api/agents/{id}/stream',
  summary: "What the agent's model calls say as they stream, as server-sent events, resumable with Last-Event-ID",
  request: { params: AgentIdParams, query: EventsQuery, headers: EventsHeaders },
  responses: {
    200: {
      description:
        'One frame per item: `id: <offset>`, `event: delta | call.started | call.finished | call.superseded`, ' +
        '`data: <JSON>`; `event: reset` (`{ from }`) when the offset asked for is gone; `event: end` last',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    400: { description: 'Invalid cursor (INVALID_INPUT)', content: { 'application/json': { schema: ErrorBody } } },
    404: { description: 'No such agent (NOT_FOUND)', content: { 'application/json': { schema: ErrorBody } } },
    503: {
      description: 'The server cannot follow live streams (AGENT_UNAVAILABLE)',
      content: { 'application/json': { schema: ErrorBody } },
    },
    429: {
      description: 'Too many streams open (TOO_MANY_STREAMS)',
      content: { 'application/json': { schema: ErrorBody } },
    },
  },
});

const threadStreamRoute = createRoute({
  method: 'get',
  path: '/api/threads/{id}/stream',
  summary: "What the thread's own model calls (chat replies) say as they stream, as server-sent events",
  request: { params: ThreadIdParams, query: EventsQuery, headers: EventsHeaders },
  responses: {
    ...streamRoute.responses,
    200: {
      description:
        "As `/api/agents/{id}/stream`, for the thread's own calls: `chat` and `route-message` (each names its " +
        '`messageId`), `title`, `compress`; open while the thread is, `event: end` once it has closed',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    404: { description: 'No such thread (NOT_FOUND)', content: { 'application/json': { schema: ErrorBody } } },
  },
});

/** One SSE frame for a live event. */
export function liveFrame(event: LiveEvent): string {
  return `id: ${event.offset}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** Registers the stream route of agents on `app` (and, with `threads`, that of threads). */
export function registerStreamRoute(
  app: OpenAPIHono,
  hub: LiveHub | undefined,
  timing: LiveStreamTiming,
  limiter: StreamLimiter,
  { threads = false }: { threads?: boolean } = {},
): void {
  const serve = (kind: WorkflowKind) => async (c: Context, id: string, lastSeen: number | undefined) => {
    if (!hub)
      throw new ClientError('AGENT_UNAVAILABLE', 'this server has no Temporal client to follow live streams with');
    // An unknown agent (thread) is a plain 404 before the stream opens.
    await hub.requireAgent(id, kind);
    const lease = openStreamLease(c, limiter);
    return streamSSE(c, async (stream) => {
      try {
        await follow(stream, hub, id, lastSeen, timing, kind);
      } finally {
        lease.release();
      }
    });
  };
  app.openapi(streamRoute, (c) =>
    serve(AGENT_KIND)(
      c,
      c.req.valid('param').id,
      c.req.valid('header')['last-event-id'] ?? c.req.valid('query').lastEventId,
    ),
  );
  if (!threads) return;
  app.openapi(threadStreamRoute, (c) =>
    serve(THREAD_KIND)(
      c,
      c.req.valid('param').id,
      c.req.valid('header')['last-event-id'] ?? c.req.valid('query').lastEventId,
    ),
  );
}

/** Writes the agent's live events to `stream` until the stream ends or the client goes. */
async function follow(
  stream: SSEStreamingApi,
  hub: LiveHub,
  id: string,
  lastSeen: number | undefined,
  timing: LiveStreamTiming,
  kind: WorkflowKind,
): Promise<void> {
  const frames: string[] = [];
  let wake: (() => void) | undefined;
  let over = false;
  let endSent = false;
  const push = (frame: string) => {
    frames.push(frame);
    wake?.();
  };
  const stop = hub.follow(
    id,
    lastSeen,
    {
      event: (event) => {
        endSent ||= event.type === 'end';
        push(liveFrame(event));
      },
      reset: (from) => push(`event: reset\ndata: ${JSON.stringify({ from })}\n\n`),
      end: () => {
        over = true;
        wake?.();
      },
    },
    kind,
  );
  stream.onAbort(() => {
    over = true;
    frames.length = 0;
    wake?.();
  });
  const heartbeat = setInterval(() => push(': heartbeat\n\n'), timing.heartbeatMs);
  try {
    for (;;) {
      while (frames.length > 0 && !stream.aborted) {
        // A client this far behind is let go (MAX_QUEUED_FRAMES): it reconnects with its Last-Event-ID.
        if (frames.length > MAX_QUEUED_FRAMES) return;
        await stream.write(frames.shift() ?? '');
      }
      if (over || stream.aborted) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    // An agent that never streamed has no `end` item: its viewers are told all the same.
    if (!stream.aborted && !endSent) await stream.write('event: end\ndata: {}\n\n');
  } finally {
    clearInterval(heartbeat);
    stop();
  }
}
