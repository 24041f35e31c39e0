/**
 * The page's reader of an agent's live output, `GET /api/agents/:id/stream`
 * (docs/contracts.md#live-output), or of a thread's own (`GET /api/threads/:id/stream`: its chat
 * replies as they are written), through the page's SSE follower (sse-follow.js: fetch, the
 * token, 429 waits, resuming from `Last-Event-ID`). It passes every event on, `reset` too, and
 * stops for good on `end`; after five failed tries in a row it says so and gives up.
 */
import { followSse } from './sse-follow.js';

/** How many refused or failed connections in a row the page retries before it gives up. */
const MAX_TRIES = 5;

/**
 * @typedef {{ type: string, data: any, offset?: number }} LiveEvent
 * @typedef {{
 *   event: (event: LiveEvent) => void,
 *   status: (text: string) => void,
 * }} LiveHandlers `status` says what the stream is doing when it is not simply streaming ('' when it is)
 */

/**
 * Follows agent (or thread) `id`'s live output until its `end`; returns the function that stops it.
 * @param {string} id
 * @param {LiveHandlers} handlers
 * @param {'agents' | 'threads'} [of]
 */
export function followLive(id, handlers, of = 'agents') {
  const stop = new AbortController();
  void followSse(
    `/api/${of}/${encodeURIComponent(id)}/stream`,
    {
      open: () => handlers.status(''),
      frame: (frame) => {
        handlers.event({
          type: frame.event,
          data: JSON.parse(frame.data || '{}'),
          ...(frame.id !== undefined ? { offset: Number(frame.id) } : {}),
        });
        return false;
      },
      retrying: (why, waitMs, tries) =>
        handlers.status(
          `Live output paused: ${why}; trying again in ${Math.ceil(waitMs / 1000)} s (${tries}/${MAX_TRIES}).`,
        ),
      gaveUp: (why) => handlers.status(`Live output unavailable (${why}); the page still follows the timeline.`),
    },
    stop.signal,
    MAX_TRIES,
  );
  return () => stop.abort();
}
