/**
 * A server-sent events client over a real socket, for tests: connects with `fetch`, parses
 * frames as they arrive (`id:`, `event:`, `data:`; comments skipped) and keeps them in order,
 * and lets a test wait for a frame, or for the stream to close.
 */
import { serve } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '../../testkit/wait-until';
import { parseFrame } from '../../client/sse-frame';

/** One frame as received. */
export interface SseFrame {
  id?: string;
  event: string;
  data: string;
  /** `Date.now()` when it was parsed. */
  at: number;
}

/** A connected client. */
export interface SseClient {
  status: number;
  frames: SseFrame[];
  /** Settles when the server closed the stream (or it broke). */
  closed: Promise<void>;
  /** Waits for a frame that `match` accepts, and returns it. */
  waitFor(description: string, match: (frame: SseFrame) => boolean, timeoutMs?: number): Promise<SseFrame>;
  close(): void;
}

/** Connects to `url` with `headers`. */
export async function connectSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const frames: SseFrame[] = [];
  const closed = res.body ? read(res.body, frames) : Promise.resolve();
  return {
    status: res.status,
    frames,
    closed,
    waitFor: (description, match, timeoutMs = 20_000) =>
      waitUntil(description, () => frames.find(match), { timeoutMs, intervalMs: 20 }),
    close: () => abort.abort(),
  };
}

async function read(body: ReadableStream<Uint8Array>, frames: SseFrame[]): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of body) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = parseFrame(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (frame) frames.push({ ...frame, at: Date.now() });
      }
    }
  } catch {
    // Aborted by close(), or the server went away: the frames so far stay.
  }
}
/** Serves `app` on a free loopback port; `close` drops open streams too, and may be called again. */
export async function serveOnLoopback(app: OpenAPIHono): Promise<{ url: string; close(): Promise<void> }> {
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server: s, port: info.port }),
    );
  });
  let serving = true;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (!serving) return resolve(); // closing twice (a test, then its teardown) is fine
        serving = false;
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
