/**
 * How the page follows a server-sent events route — the agent's timeline (`/events`) and its
 * live output (`/stream`): with fetch rather than EventSource, because EventSource cannot send
 * the pasted bearer token, and when the server refuses a stream it only says "error" — the page
 * could not tell `429 TOO_MANY_STREAMS` (wait as its Retry-After says, then try again) from a
 * gone server, and it reconnects to a finished stream forever. A dropped connection is resumed
 * from the last `id:` seen (`Last-Event-ID`); refused or failed tries back off, doubling.
 */
import { storedToken } from './api.js';
import { readSseFrames } from './rules.js';

/** The wait before the first retry when the server names none (ms); doubled on each next one. */
const FIRST_RETRY_MS = 1000;
/** The longest wait between two tries (ms). */
const LONGEST_RETRY_MS = 30_000;

/**
 * @typedef {{ id?: string, event: string, data: string }} SseFrame
 * @typedef {{
 *   open: () => void,
 *   frame: (frame: SseFrame) => boolean,
 *   retrying: (why: string, waitMs: number, tries: number) => void,
 *   gaveUp: (why: string) => void,
 * }} SseHandlers `frame` returns true once the stream has said all it will (it is not read again)
 */

/**
 * Follows `path` until its `end` frame, a frame `handlers.frame` says is the last, `signal`
 * aborting, or `maxTries` failed tries in a row.
 * @param {string} path
 * @param {SseHandlers} handlers
 * @param {AbortSignal} signal
 * @param {number} maxTries
 */
export async function followSse(path, handlers, signal, maxTries) {
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
        throw new Error(body?.error?.code === 'TOO_MANY_STREAMS' ? 'too many streams are open' : 'HTTP 429');
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      tries = 0;
      handlers.open();
      let last = false;
      const ended = await readSseFrames(response.body, (frame) => {
        if (frame.id !== undefined) lastId = frame.id;
        if (handlers.frame(frame)) last = true;
      });
      if (ended || last) return;
      // The server closed the stream without saying it was over (a restart, a proxy): resume.
    } catch (err) {
      if (signal.aborted) return;
      tries += 1;
      const why = err instanceof Error ? err.message : String(err);
      if (tries > maxTries) {
        handlers.gaveUp(why);
        return;
      }
      waitMs ??= Math.min(FIRST_RETRY_MS * 2 ** (tries - 1), LONGEST_RETRY_MS);
      handlers.retrying(why, waitMs, tries);
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs ?? FIRST_RETRY_MS));
  }
}
