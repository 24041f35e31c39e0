/**
 * An agent's live output read over Cairn's HTTP API (`GET /api/agents/:id/stream`,
 * docs/contracts.md#live-output), for `cairn run` and `cairn watch` with CAIRN_API_URL set — and
 * a thread's (`GET /api/threads/:id/stream`), for `cairn chat`'s replies: the
 * server-sent events become the same {@link LiveListener} calls the web server's hub makes. A
 * dropped connection is resumed from the last `id:` (`Last-Event-ID`); a `429 TOO_MANY_STREAMS`
 * is waited out as its Retry-After says and tried again a few times, then given up with a notice
 * (the timeline goes on without the live text).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { LiveEvent } from '../live-events';
import type { LiveListener } from '../live-hub';
import type { ApiTarget } from '../../cli/cairn-api';
import { readSseFrames } from '../../sse-frame';

/** Refused or failed connections in a row before the live text is given up. */
const MAX_TRIES = 5;
const FIRST_RETRY_MS = 1_000;
const TYPES: ReadonlySet<string> = new Set(['delta', 'call.started', 'call.finished', 'call.superseded', 'end']);

/** Whose stream: an agent's (`/api/agents/:id/stream`) or a thread's own (`/api/threads/:id/stream`). */
export type StreamOwner = 'agents' | 'threads';

/**
 * Follows agent (or thread) `id`'s live output — after `lastEventId` when given (what an earlier
 * follow saw last), else from the oldest item retained; returns the function that stops following.
 */
export function followLiveOverHttp(
  target: ApiTarget,
  id: string,
  listener: LiveListener,
  notice: (message: string) => void,
  owner: StreamOwner = 'agents',
  lastEventId?: string,
): () => void {
  const stop = new AbortController();
  const url = `${target.url}/api/${owner}/${encodeURIComponent(id)}/stream`;
  void follow(target, url, listener, notice, stop.signal, lastEventId).catch(() => undefined);
  return () => stop.abort();
}

async function follow(
  target: ApiTarget,
  url: string,
  listener: LiveListener,
  notice: (message: string) => void,
  signal: AbortSignal,
  after: string | undefined,
): Promise<void> {
  let lastId = after;
  let tries = 0;
  while (!signal.aborted) {
    let waitMs: number | undefined;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', 'x-cairn-client': 'cli' };
      if (target.token) headers.authorization = `Bearer ${target.token}`;
      if (lastId !== undefined) headers['last-event-id'] = lastId;
      const res = await fetch(url, { headers, signal });
      if (res.status === 429) {
        await res.body?.cancel();
        const seconds = Number(res.headers.get('retry-after'));
        if (Number.isFinite(seconds) && seconds > 0) waitMs = seconds * 1000;
        throw new Error('too many streams open (429 TOO_MANY_STREAMS)');
      }
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      tries = 0;
      const ended = await readEvents(res.body, listener, (offset) => (lastId = offset));
      if (ended) return listener.end();
    } catch (err) {
      if (signal.aborted) return;
      tries += 1;
      const why = err instanceof Error ? err.message : String(err);
      if (tries > MAX_TRIES) return notice(`live output unavailable: ${why}`);
      waitMs ??= FIRST_RETRY_MS * 2 ** (tries - 1);
      notice(`live output: ${why}; trying again in ${Math.ceil(waitMs / 1000)} s`);
    }
    await sleep(waitMs ?? FIRST_RETRY_MS, undefined, { signal }).catch(() => undefined);
  }
}

/** Reads frames into `listener`; resolves true once `end` came, false when the connection ended first. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  listener: LiveListener,
  seen: (offset: string) => void,
): Promise<boolean> {
  return readSseFrames(body, (frame) => {
    if (frame.id !== undefined) seen(frame.id);
    if (frame.event === 'reset') {
      listener.reset(Number((JSON.parse(frame.data || '{}') as { from?: unknown }).from ?? 0));
      return;
    }
    if (!TYPES.has(frame.event)) return;
    listener.event({
      offset: Number(frame.id ?? -1),
      type: frame.event as LiveEvent['type'],
      data: JSON.parse(frame.data || '{}') as Record<string, unknown>,
    });
  });
}
