/**
 * The page's client of the Cairn HTTP API: JSON requests with the bearer token the user pasted
 * into the page's token box (kept in localStorage), API errors as `ApiError`, and a live event
 * feed for one agent — EventSource when no token is needed, else a fetch-read SSE stream
 * (EventSource cannot send headers). Both resume from the last event id.
 *
 * Tokens never come from the address: a `?token=` link used to set the token silently — a link
 * from anyone replaced a signed-in person's identity on the page, for good — and a token in a URL
 * ends up in history, logs and Referer headers. Such a link's token is now dropped unused.
 */

const TOKEN_KEY = 'cairn.apiToken';
/** Where `?token=` links put their token before: one planted that way must not linger. */
const LINK_TOKEN_KEY = 'cairn.token';

/**
 * Drops a `?token=` from the address bar without using it, and forgets any token an earlier
 * such link stored. Returns whether the address carried one (the page then says what to do).
 */
export function dropAddressToken() {
  localStorage.removeItem(LINK_TOKEN_KEY);
  const url = new URL(location.href);
  if (!url.searchParams.has('token')) return false;
  url.searchParams.delete('token');
  history.replaceState(null, '', url.pathname + url.search + url.hash);
  return true;
}

/** @returns {string | null} the token the user pasted, if any. */
export const storedToken = () => localStorage.getItem(TOKEN_KEY);

/**
 * Checks a pasted token with `GET /api/me` and keeps it when the server accepts it.
 * @param {string} candidate
 * @returns {Promise<string | null>} null when kept, else why not
 */
export async function useToken(candidate) {
  const bearer = candidate.trim();
  if (bearer === '') return 'paste a token first';
  const response = await fetch('/api/me', { headers: { Authorization: `Bearer ${bearer}`, 'X-Cairn-Client': 'web' } });
  if (!response.ok) return `the server refused this token (${response.status})`;
  localStorage.setItem(TOKEN_KEY, bearer);
  return null;
}

/** Forgets the pasted token. */
export function forgetToken() {
  localStorage.removeItem(TOKEN_KEY);
}

/** @returns {string | null} */
const token = storedToken;

/** An API failure: `{ error: { code, message, field? } }` with its HTTP status. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {{ code?: string, message?: string, field?: string }} detail
   */
  constructor(status, detail) {
    super(detail.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = detail.code ?? 'HTTP_ERROR';
    this.field = detail.field;
  }
}

/**
 * Calls the API; resolves to the JSON body, or throws ApiError.
 * @param {string} path e.g. `/api/agents`
 * @param {{ method?: string, body?: unknown }} [options]
 */
export async function api(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json', 'X-Cairn-Client': 'web' };
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body?.error ?? {});
  return body;
}

/**
 * Follows an agent's events; calls `onEvent` for each (and on reconnect). Returns a stop function.
 * @param {string} id
 * @param {(event: { seq: number, type: string } | null) => void} onEvent
 */
export function watchEvents(id, onEvent) {
  const path = `/api/agents/${encodeURIComponent(id)}/events`;
  const t = token();
  if (!t) {
    const source = new EventSource(path);
    source.onmessage = (e) => onEvent(JSON.parse(e.data));
    // Named events (`event: step.started`, ...) do not reach onmessage: listen to each type.
    const types = ['plan.created', 'plan.revised', 'plan.rejected', 'step.started', 'step.finished'];
    types.push('tool.called', 'interaction.opened', 'interaction.answered', 'interaction.reminder');
    types.push('step.guard');
    types.push('interaction.approved', 'interaction.expired', 'answer.rejected', 'signal.rejected', 'replan');
    types.push('summary', 'agent.paused', 'agent.resumed', 'agent.finished');
    for (const type of types) source.addEventListener(type, (e) => onEvent(JSON.parse(e.data)));
    source.onopen = () => onEvent(null);
    return () => source.close();
  }
  const stop = new AbortController();
  void streamWithFetch(path, t, onEvent, stop.signal);
  return () => stop.abort();
}

/**
 * @param {string} path
 * @param {string} bearer
 * @param {(event: { seq: number, type: string } | null) => void} onEvent
 * @param {AbortSignal} signal
 */
async function streamWithFetch(path, bearer, onEvent, signal) {
  let lastId = 0;
  while (!signal.aborted) {
    try {
      /** @type {Record<string, string>} */
      const headers = { Authorization: `Bearer ${bearer}`, 'Last-Event-ID': String(lastId) };
      const response = await fetch(path, { headers, signal });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      onEvent(null);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          const event = JSON.parse(data.slice(6));
          if (typeof event.seq === 'number') lastId = event.seq;
          onEvent(event);
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}
