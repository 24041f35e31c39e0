/**
 * The page's follower of one agent's timeline, `GET /api/agents/:id/events`
 * (docs/contracts.md#server-sent-events), through the page's SSE follower (sse-follow.js).
 */
import { followSse } from './sse-follow.js';

/**
 * Follows an agent's timeline events (`GET /api/agents/:id/events`, through sse-follow.js);
 * calls `onEvent` for each, and with null on each (re)connection. It ends after the agent's
 * `agent.finished`; refused or failed, it keeps trying (backing off to 30 s between tries) and
 * says so through `onStatus` ('' once it reads again). Returns a stop function.
 * @param {string} id
 * @param {(event: { seq: number, type: string } | null) => void} onEvent
 * @param {(text: string) => void} onStatus
 */
export function watchEvents(id, onEvent, onStatus) {
  const stop = new AbortController();
  void followSse(
    `/api/agents/${encodeURIComponent(id)}/events`,
    {
      open: () => {
        onStatus('');
        onEvent(null);
      },
      frame: (frame) => {
        const event = JSON.parse(frame.data || '{}');
        onEvent(event);
        return event.type === 'agent.finished';
      },
      retrying: (why, waitMs) => onStatus(`Timeline paused: ${why}; trying again in ${Math.ceil(waitMs / 1000)} s.`),
      gaveUp: () => undefined,
    },
    stop.signal,
    Number.POSITIVE_INFINITY,
  );
  return () => stop.abort();
}
