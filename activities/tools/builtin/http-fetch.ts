/**
 * `http_fetch { url, method?, headers?, body? }`: one HTTP(S) request with time, size and
 * address limits. The address check runs where the connection is made: a custom `lookup`
 * resolves the host once, refuses the whole request if any resolved address is not allowed, and
 * hands the socket only checked addresses, so DNS rebinding cannot swap in a private address
 * after the check. IP literals (which never reach `lookup`) are checked before the request.
 * Redirects are followed by hand so every hop goes through the same check.
 *
 * The model chooses the method, URL, body and ordinary headers, never the framing: headers about
 * the connection or the message length are dropped (the output names them) and Node computes
 * Content-Length from the body, so a body cannot pose as a second request. GET and HEAD read;
 * any other method writes (`readWhen`), so it waits for approval, is sent with one attempt, and
 * carries the call's idempotency key as `Idempotency-Key`.
 */
import { lookup as dnsLookup } from 'node:dns';
import { type IncomingHttpHeaders, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type LookupFunction, isIP } from 'node:net';
import { z } from 'zod';
import { HEADER_NAME_PATTERN, HEADER_VALUE_PATTERN } from '../../../workflows/model/tools/own-patterns';
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
/** The methods that only read; any other is a write. */
const READ_METHODS: readonly Method[] = ['GET', 'HEAD'];

/**
 * Hop-by-hop and framing headers. They are the transport's business: Node sets Host from the
 * URL, Connection and Content-Length itself. Dropped rather than refused, because they are
 * harmless once dropped and models often copy them from curl examples; the output names them.
 */
const TRANSPORT_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'expect',
]);
const IDEMPOTENCY_KEY = 'idempotency-key';
/** An RFC 9110 token: no spaces, colons, CR or LF (one of the expressions workflow code may run). */
const HEADER_NAME = new RegExp(HEADER_NAME_PATTERN);
/** One line: tabs, spaces and visible Latin-1 characters (what Node accepts in a header value). */
const HEADER_VALUE = new RegExp(HEADER_VALUE_PATTERN);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Credentials that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
/** Headers of a write's body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', IDEMPOTENCY_KEY]);
const SHOWN_HEADERS = ['content-type', 'content-length', 'content-encoding', 'location'];
/** Headroom over `timeoutMs` for the activity, so the tool's own clearer error wins. */
const ACTIVITY_GRACE_MS = 5_000;

const input = z
  .object({
    url: z.url({ protocol: /^https?$/ }).describe('Absolute http:// or https:// URL'),
    method: z.enum(METHODS).optional().describe('HTTP method (default GET)'),
    headers: z
      .record(
        z.string().regex(HEADER_NAME, "not a header name (letters, digits and !#$%&'*+.^_`|~- only)"),
        z.string().regex(HEADER_VALUE, 'a header value is one line of text (no CR, LF or control characters)'),
      )
      .optional()
      .describe('Request headers (Host, Content-Length and other framing headers are set by the tool)'),
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
  // One `end(body)` with no earlier write makes Node send Content-Length (the body's) rather
  // than chunks; no Content-Length header of the model's reaches Node (see TRANSPORT_HEADERS).
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
      // A Content-Length that is not the body's is an error (the flag exists on every outgoing
      // message; @types/node declares it on ServerResponse only).
      Object.assign(outgoing, { strictContentLength: true });
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

/**
 * Status line, a few headers, the request headers that were ignored if any, a blank line, then
 * the body text or a note in its place.
 */
function formatResponse(fetched: Fetched, ignored: string[], maxBytes: number): string {
  const { url, redirected, response, body, cut } = fetched;
  const lines = [`HTTP ${response.statusCode ?? 0} ${response.statusMessage ?? ''}`.trimEnd()];
  if (redirected) lines.push(`url: ${url.href}`);
  for (const name of SHOWN_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) lines.push(`${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
  }
  if (ignored.length > 0) lines.push(`[request headers the tool sets itself were ignored: ${ignored.join(', ')}]`);
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

/**
 * The model's headers without the transport headers, and for a write with the call's
 * idempotency key (the same on every retry of the call) in place of any the model gave.
 */
function requestHeaders(
  given: Record<string, string>,
  method: Method,
  idempotencyKey: string,
): { headers: Record<string, string>; ignored: string[] } {
  const write = !READ_METHODS.includes(method);
  const isIgnored = (name: string): boolean =>
    TRANSPORT_HEADERS.has(name.toLowerCase()) || (write && name.toLowerCase() === IDEMPOTENCY_KEY);
  const ignored = Object.keys(given).filter(isIgnored);
  const headers = Object.fromEntries(Object.entries(given).filter(([name]) => !isIgnored(name)));
  return { headers: write ? { ...headers, [IDEMPOTENCY_KEY]: idempotencyKey } : headers, ignored };
}

async function runFetch(args: z.output<typeof input>, context: ToolContext, settings: Settings): Promise<string> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), settings.timeoutMs);
  const signal = AbortSignal.any([context.signal, deadline.signal]);
  const method = args.method ?? 'GET';
  const { headers, ignored } = requestHeaders(args.headers ?? {}, method, context.idempotencyKey);
  const hop: Hop = { url: new URL(args.url), method, headers, body: args.body };
  try {
    return formatResponse(await fetchFollowing(hop, settings, signal), ignored, settings.maxBytes);
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
 *   when the origin changes;
 * - framing: Host, Content-Length, Transfer-Encoding and the other hop-by-hop headers of the
 *   model are dropped; writes (methods other than GET and HEAD) send `Idempotency-Key`.
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
    // A write unless the method reads: POST, PUT, PATCH and DELETE wait for approval and are
    // sent once (the server may ignore Idempotency-Key); GET and HEAD run at once and are retried.
    effect: 'write',
    readWhen: { argument: 'method', default: 'GET', values: [...READ_METHODS] },
    timeoutMs: settings.timeoutMs + ACTIVITY_GRACE_MS,
    input,
    run: (args, context) => runFetch(args, context, settings),
  });
}
