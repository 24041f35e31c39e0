/**
 * The DNS-rebinding guard: a request is served only when its `Host` names a host this server
 * answers to. A rebinding page lives on the attacker's domain, which they later point at
 * 127.0.0.1; the browser then treats our API as that page's own origin but still sends the
 * attacker's name in `Host`, so refusing unknown names stops it from reading state or answering
 * interactions — which matters most without a bearer token, the default on loopback. Names are
 * compared without the port, lower-cased, IPv6 addresses in brackets (as browsers send them).
 */
import { isIPv6 } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { sendError } from './errors';

/** Names of this machine that no other site can make a browser send. */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Listen addresses meaning "every interface": they name no host a browser would use. */
const ANY_ADDRESS = new Set(['', '0.0.0.0', '[::]']);

/** A host name as it is compared: trimmed, lower-cased, a bare IPv6 address put in brackets. */
export function normaliseHostName(name: string): string {
  const lower = name.trim().toLowerCase();
  return isIPv6(lower) ? `[${lower}]` : lower;
}

/**
 * The names the server answers to: the loopback names, the listen host when it is one specific
 * name or address (not 0.0.0.0 / ::), and the configured extra names (CAIRN_HTTP_ALLOWED_HOSTS).
 */
export function allowedHostNames(listenHost: string, extra: readonly string[] = []): string[] {
  const listen = normaliseHostName(listenHost);
  const names = [...LOOPBACK_HOST_NAMES, ...(ANY_ADDRESS.has(listen) ? [] : [listen]), ...extra];
  return [...new Set(names.map(normaliseHostName))];
}

/** The host name of a `Host` value (`name`, `name:port`, `[v6]`, `[v6]:port`); undefined when malformed. */
export function hostNameOf(host: string): string | undefined {
  const name = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@]+)(?::\d{1,5})?$/i.exec(host)?.[1];
  return name === undefined ? undefined : normaliseHostName(name);
}

/**
 * The middleware, to run before routing. Paths in `open` skip the check: health probes of load
 * balancers and orchestrators name the machine's address, and health reveals no agent data.
 */
export function requireAllowedHost(allowed: readonly string[], open: readonly string[] = []): MiddlewareHandler {
  const names = new Set(allowed.map(normaliseHostName));
  return async (c, next) => {
    if (open.includes(c.req.path)) return next();
    const host = requestedHost(c);
    const name = host === undefined ? undefined : hostNameOf(host);
    if (name !== undefined && names.has(name)) return next();
    if (host === undefined) return sendError(c, 'HOST_NOT_ALLOWED', 'the request has no Host header');
    const shown = JSON.stringify(host.slice(0, 100));
    return sendError(c, 'HOST_NOT_ALLOWED', `host ${shown} is not served here (CAIRN_HTTP_ALLOWED_HOSTS lists more)`);
  };
}

/**
 * The host the client asked for. Over a socket that is the `Host` header, and none is refused
 * (Node itself refuses HTTP/1.1 without one; HTTP/1.0 may leave it out). An in-process request
 * (`app.request()` in tests) carries no header, so its URL's authority stands in.
 */
function requestedHost(c: Context): string | undefined {
  const header = c.req.header('host');
  if (header !== undefined) return header;
  return cameOverSocket(c) ? undefined : new URL(c.req.url).host;
}

/** True when @hono/node-server handed the request over (its bindings carry the Node request). */
function cameOverSocket(c: Context): boolean {
  const env: unknown = c.env;
  return typeof env === 'object' && env !== null && 'incoming' in env;
}
