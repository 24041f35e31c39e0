/**
 * The DNS-rebinding guard: a request is served only when its `Host` names a host this server
 * answers to. A rebinding page lives on the attacker's domain, which they later point at
 * 127.0.0.1; the browser then treats our API as that page's own origin but still sends the
 * attacker's name in `Host`, so refusing unknown names stops it from reading state or answering
 * interactions — which matters most without a bearer token, the default on loopback. Names are
 * compared without the port, lower-cased, IPv6 addresses in brackets (as browsers send them).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { hostNameOf, normaliseHostName } from '../../config/host-names';
import { sendError } from './errors';

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
