/**
 * The page's client of the Cairn HTTP API: JSON requests with the bearer token the user pasted
 * into the page's token box (kept in localStorage), API errors as `ApiError`.
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

/** The headers every API request carries: JSON wanted, the page named, the pasted token if any. */
function baseHeaders() {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json', 'X-Cairn-Client': 'web' };
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  return headers;
}

/**
 * Sends a multipart form (a start with files); resolves to the JSON body, or throws ApiError.
 * The browser sets the Content-Type with its boundary.
 * @param {string} path
 * @param {FormData} form
 */
export async function apiForm(path, form) {
  const response = await fetch(path, { method: 'POST', headers: baseHeaders(), body: form });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body?.error ?? {});
  return body;
}

/**
 * Downloads `path` with the page's credentials (a plain link would carry no bearer token) and
 * hands it to the browser as a file named `name`, through a short-lived blob link.
 * @param {string} path
 * @param {string} name
 */
export async function download(path, name) {
  const headers = baseHeaders();
  delete headers.Accept;
  const response = await fetch(path, { headers });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new ApiError(response.status, body?.error ?? {});
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the click has been handed to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Calls the API; resolves to the JSON body, or throws ApiError.
 * @param {string} path e.g. `/api/agents`
 * @param {{ method?: string, body?: unknown }} [options]
 */
export async function api(path, options = {}) {
  const headers = baseHeaders();
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
