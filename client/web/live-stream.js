/**
 * The page's reader of an agent's live output, `GET /api/agents/:id/stream`
 * (docs/contracts.md#live-output). It reads the server-sent events with fetch rather than
 * EventSource: EventSource cannot send the pasted bearer token, and when the server refuses a
 * stream it only says "error" — the page could not tell `429 TOO_MANY_STREAMS` (wait, as its
 * Retry-After says, and try again) from a gone server. It resumes after a dropped connection
 * from the last `id:` it saw (`Last-Event-ID`), passes `reset` on, and stops for good on `end`.
 */
import { storedToken } from './api.js';
import { readSseFrames } from './rules.js';

/** How many refused or failed connections in a row the page retries before it gives up. */
const MAX_TRIES = 5;
/** The wait before the first retry when the server names none (ms); doubled on each next one. */
const FIRST_RETRY_MS = 1000;

/**
 * @typedef {{ type: string, data: any, offset?: number }} LiveEvent
 * @typedef {{
 *   event: (event: LiveEvent) => void,
 *   status: (text: string) => void,
 * }} LiveHandlers `status` says what the stream is doing when it is not simply streaming ('' when it is)
 */

/**
 * Follows agent `id`'s live output until its `end`; returns the function that stops it.
 * @param {string} id
 * @param {LiveHandlers} handlers
 */
export function followLive(id, handlers) {
  const stop = new AbortController();
  void run(`/api/agents/${encodeURIComponent(id)}/stream`, handlers, stop.signal);
  return () => stop.abort();
}

/**
 * @param {string} path
 * @param {LiveHandlers} handlers
 * @param {AbortSignal} signal
 */
async function run(path, handlers, signal) {
  /** @type {string | undefined} */
  let lastId;
  let tries = 0;
  while (!signal.aborted) {
    /** @type {number | undefined} */
    let waitMs;
    try {
      /** @type {Record<string, string>} */
      const headers = { Accept: 'text/event-stream', 'X-Cairn-Client': 'web' };
      const token = storedToken();
      if (token) headers.Authorization = `Bearer ${token}`;
      if (lastId !== undefined) headers['Last-Event-ID'] = lastId;
      const response = await fetch(path, { headers, signal });
      if (response.status === 429) {
        const body = await response.json().catch(() => ({}));
        const seconds = Number(response.headers.get('Retry-After'));
        waitMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
        throw new Error(body?.error?.code === 'TOO_MANY_STREAMS' ? 'too many live streams are open' : 'HTTP 429');
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      tries = 0;
      handlers.status('');
      const ended = await readSseFrames(response.body, (frame) => {
        if (frame.id !== undefined) lastId = frame.id;
        handlers.event({
          type: frame.event,
          data: JSON.parse(frame.data || '{}'),
          ...(frame.id !== undefined ? { offset: Number(frame.id) } : {}),
        });
      });
      if (ended) return;
    } catch (err) {
      if (signal.aborted) return;
      tries += 1;
      const why = err instanceof Error ? err.message : String(err);
      if (tries > MAX_TRIES) {
        handlers.status(`Live output unavailable (${why}); the page still follows the timeline.`);
        return;
      }
      waitMs ??= FIRST_RETRY_MS * 2 ** (tries - 1);
      handlers.status(
        `Live output paused: ${why}; trying again in ${Math.ceil(waitMs / 1000)} s (${tries}/${MAX_TRIES}).`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs ?? FIRST_RETRY_MS));
  }
}
