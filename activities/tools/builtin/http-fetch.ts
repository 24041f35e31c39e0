/**
 * `http_fetch { url, method?, headers?, body? }`: one HTTP(S) request with time, size and
 * address limits. The address check runs where the connection is made: a custom `lookup`
 * resolves the host once, refuses the whole request if any resolved address is not allowed, and
 * hands the socket only checked addresses, so DNS rebinding cannot swap in a private address
 * after the check. IP literals (which never reach `lookup`) are checked before the request.
 * Redirects are followed by hand so every hop goes through the same check.
 */
import { lookup as dnsLookup } from 'node:dns';
import { type IncomingHttpHeaders, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type LookupFunction, isIP } from 'node:net';
import { z } from 'zod';
import { type ToolContext, type ToolDefinition, defineTool } from '../define-tool';
import { type AllowableClass, classifyAddress, isAllowed } from './address-policy';

/** Limits for the `http_fetch` tool; `allow` comes from `CAIRN_FETCH_ALLOW`. */
export interface HttpFetchOptions {
  /** Address classes that may be reached besides public ones. */
  allow: AllowableClass[];
  /** Time for the whole call, redirects included (default 15000 ms). */
  timeoutMs?: number;
  /** Response body bytes kept; the rest is not read (default 1 000 000). */
  maxBytes?: number;
  /** Redirects followed before giving up (default 5). */
  maxRedirects?: number;
}

type Settings = Required<HttpFetchOptions>;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Credentials that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding']);
const SHOWN_HEADERS = ['content-type', 'content-length', 'content-encoding', 'location'];
/** Headroom over `timeoutMs` for the activity, so the tool's own clearer error wins. */
const ACTIVITY_GRACE_MS = 5_000;

const input = z
  .object({
    url: z.url({ protocol: /^https?$/ }).describe('Absolute http:// or https:// URL'),
    method: z.enum(METHODS).optional().describe('HTTP method (default GET)'),
    headers: z.record(z.string(), z.string()).optional().describe('Request headers'),
    body: z.string().optional().describe('Request body (not with GET or HEAD)'),
  })
  .refine((args) => args.body === undefined || !['GET', 'HEAD', undefined].includes(args.method), {
    message: 'a body needs method POST, PUT, PATCH or DELETE',
    path: ['body'],
  });

/** One hop of the request. */
interface Hop {
  url: URL;
  method: Method;
  headers: Record<string, string>;
  body?: string;
}

/** A response body, read up to the size limit; `cut` when more was there. */
interface Body {
  body: Buffer;
  cut: boolean;
}

/** The final response of a call. */
interface Fetched extends Body {
  url: URL;
  redirected: boolean;
  response: IncomingMessage;
}

/** Errors this tool raises itself, already worded for the model. */
class HttpFetchError extends Error {
  constructor(message: string) {
    super(`http_fetch: ${message}`);
    this.name = 'HttpFetchError';
  }
}

function refusal(ip: string, host?: string): HttpFetchError {
  const addressClass = classifyAddress(ip);
  const what = host === undefined || host === ip ? ip : `${host} resolves to ${ip}, which`;
  const hint = addressClass === 'reserved' ? 'never allowed' : `allow it with CAIRN_FETCH_ALLOW=${addressClass}`;
  return new HttpFetchError(`${what} is a ${addressClass} address; refused (${hint})`);
}

/** A `lookup` that resolves every address of the host and refuses if any is not allowed. */
function guardedLookup(allow: readonly AllowableClass[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const refused = addresses.find(({ address }) => !isAllowed(address, allow));
      const first = addresses[0];
      if (refused) return callback(refusal(refused.address, hostname), '');
      if (!first) return callback(new HttpFetchError(`${hostname} has no address`), '');
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/** Sends one request; resolves with the response head. Nothing is sent to a refused address. */
function send(hop: Hop, allow: readonly AllowableClass[], signal: AbortSignal): Promise<IncomingMessage> {
  const literal = hop.url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) && !isAllowed(literal, allow)) return Promise.reject(refusal(literal));
  // One `end(body)` with no earlier write makes Node send Content-Length rather than chunks.
  const { method, headers } = hop;
  const options = { method, headers, agent: false, lookup: guardedLookup(allow), signal } as const;
  return new Promise((resolve, reject) => {
    const fail = (err: Error): void =>
      reject(
        err instanceof HttpFetchError
          ? err
          : new HttpFetchError(`${hop.method} ${hop.url.href} failed: ${err.message}`),
      );
    try {
      const sendRequest = hop.url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = sendRequest(hop.url, options, resolve);
      outgoing.on('error', fail);
      outgoing.end(hop.body);
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** Reads at most `maxBytes` of the body; past that the response is dropped and `cut` is set. */
function readBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onAbort = (): void => void response.destroy(new HttpFetchError('aborted'));
    const settle = (outcome: Body | Error): void => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - size;
      chunks.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
      size += Math.min(chunk.length, room);
      if (chunk.length <= room) return;
      settle({ body: Buffer.concat(chunks), cut: true });
      response.destroy();
    });
    response.on('end', () => settle({ body: Buffer.concat(chunks), cut: false }));
    response.on('error', settle);
    response.on('close', () => settle(new HttpFetchError('the connection closed before the body was complete')));
  });
}

/** The request for the next hop when `response` is a redirect to follow, else undefined. */
function redirectHop(hop: Hop, response: IncomingMessage): Hop | undefined {
  const status = response.statusCode ?? 0;
  const location = response.headers.location;
  if (!REDIRECT_STATUSES.has(status) || location === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new HttpFetchError(`redirect to an invalid URL: ${location}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HttpFetchError(`redirect to ${url.protocol} refused (http and https only)`);
  }
  // As browsers do: 303 turns anything but HEAD into GET, 301/302 turn POST into GET.
  const toGet =
    (status === 303 && hop.method !== 'HEAD') || ((status === 301 || status === 302) && hop.method === 'POST');
  const drop = new Set([...(toGet ? BODY_HEADERS : []), ...(url.origin !== hop.url.origin ? CREDENTIAL_HEADERS : [])]);
  const headers = Object.fromEntries(Object.entries(hop.headers).filter(([name]) => !drop.has(name.toLowerCase())));
  return toGet ? { url, method: 'GET', headers } : { ...hop, url, headers };
}

/** Sends `first` and follows redirects, each hop address-checked, up to `maxRedirects`. */
async function fetchFollowing(first: Hop, settings: Settings, signal: AbortSignal): Promise<Fetched> {
  let hop = first;
  for (let redirects = 0; ; redirects += 1) {
    if (signal.aborted) throw new HttpFetchError('aborted');
    const response = await send(hop, settings.allow, signal);
    let next: Hop | undefined;
    try {
      next = redirectHop(hop, response);
    } catch (err) {
      response.destroy();
      throw err;
    }
    if (!next) {
      const read = await readBody(response, settings.maxBytes, signal);
      return { url: hop.url, redirected: redirects > 0, response, ...read };
    }
    response.destroy();
    if (redirects >= settings.maxRedirects) {
      throw new HttpFetchError(`too many redirects (more than ${settings.maxRedirects})`);
    }
    hop = next;
  }
}

const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|x-yaml|yaml)\b)|\+(json|xml)\b/;

function isText(headers: IncomingHttpHeaders, body: Buffer): boolean {
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') return false;
  const type = headers['content-type']?.toLowerCase();
  return type === undefined ? !body.includes(0) : TEXT_TYPES.test(type);
}

function decode(headers: IncomingHttpHeaders, body: Buffer): string {
  const charset = /charset\s*=\s*"?([^;"\s]+)/i.exec(headers['content-type'] ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Status line, a few headers, a blank line, then the body text or a note in its place. */
function formatResponse({ url, redirected, response, body, cut }: Fetched, maxBytes: number): string {
  const lines = [`HTTP ${response.statusCode ?? 0} ${response.statusMessage ?? ''}`.trimEnd()];
  if (redirected) lines.push(`url: ${url.href}`);
  for (const name of SHOWN_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) lines.push(`${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
  }
  lines.push('');
  const type = response.headers['content-type'] ?? 'unknown type';
  if (body.length === 0) lines.push('(empty body)');
  else if (!isText(response.headers, body)) {
    lines.push(`[${cut ? `more than ${maxBytes}` : body.length} bytes of ${type} not shown]`);
  } else {
    lines.push(decode(response.headers, body));
    if (cut) lines.push(`[body cut at ${maxBytes} bytes]`);
  }
  return lines.join('\n');
}

async function runFetch(args: z.output<typeof input>, context: ToolContext, settings: Settings): Promise<string> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), settings.timeoutMs);
  const signal = AbortSignal.any([context.signal, deadline.signal]);
  const hop: Hop = {
    url: new URL(args.url),
    method: args.method ?? 'GET',
    headers: args.headers ?? {},
    body: args.body,
  };
  try {
    return formatResponse(await fetchFollowing(hop, settings, signal), settings.maxBytes);
  } catch (err) {
    if (deadline.signal.aborted) throw new HttpFetchError(`no answer within ${settings.timeoutMs} ms`);
    if (context.signal.aborted) throw new HttpFetchError('cancelled');
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Creates the `http_fetch` tool. Limits:
 * - addresses: public ones always, `options.allow` classes besides, reserved never; checked for
 *   every resolved address of every hop, before anything is sent;
 * - time: `timeoutMs` over the whole call, redirects included; the context's signal cancels;
 * - size: the body is read up to `maxBytes`, then the connection is dropped and the output says
 *   the body was cut (the call does not fail);
 * - redirects (301/302/303/307/308) are followed up to `maxRedirects`; credentials are dropped
 *   when the origin changes.
 * Any status, 4xx and 5xx included, is returned as output; network failures, refusals and the
 * limits above throw an `Error` whose message starts with `http_fetch:`.
 */
export function createHttpFetchTool(options: HttpFetchOptions): ToolDefinition {
  const settings: Settings = {
    allow: options.allow,
    timeoutMs: options.timeoutMs ?? 15_000,
    maxBytes: options.maxBytes ?? 1_000_000,
    maxRedirects: options.maxRedirects ?? 5,
  };
  return defineTool({
    name: 'http_fetch',
    description:
      'Make an HTTP(S) request and return the status, main headers and body text. ' +
      `Bodies over ${settings.maxBytes} bytes are cut; the call fails after ${settings.timeoutMs} ms. ` +
      'Methods other than GET and HEAD may change things on the server.',
    // Reads are the common case; approval for side-effecting methods is decided elsewhere.
    effect: 'read',
    timeoutMs: settings.timeoutMs + ACTIVITY_GRACE_MS,
    input,
    run: (args, context) => runFetch(args, context, settings),
  });
}
