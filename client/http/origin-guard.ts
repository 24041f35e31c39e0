/**
 * The cross-site request guard, on every request that may change something (any method but
 * GET, HEAD and OPTIONS), in every authentication mode. A page on another site can make a
 * browser send a POST to this server — `fetch(…, { mode: 'no-cors' })` or a form — and the
 * browser attaches the session cookie, or, under `none` (the loopback default of `npm start`),
 * needs nothing at all: such a page paused an agent. Browsers say where such a request comes
 * from (`Origin`, and `Sec-Fetch-Site` in current ones), so it is refused with 403 `FORBIDDEN`
 * when `Origin` is not this server's own origin (nor an origin trusted for that path: the
 * Temporal UI's on `/codec/*`), or when `Sec-Fetch-Site` is `cross-site` or `same-site`.
 * Requests with neither header — the CLI, scripts, SDK clients — are not browsers' and pass.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { sendError } from './errors';

/** Methods that change nothing here, so any site may send them (reading answers is what CORS guards). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `Sec-Fetch-Site` values of a request another site's page made. */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);

/** An origin trusted beyond the server's own, on the paths under `pathPrefix`. */
export interface TrustedOrigin {
  pathPrefix: string;
  origin: string;
}

/** What the guard compares against. */
export interface OriginPolicy {
  /** The origins that are this server's own: the public URL's behind a proxy, and the request's. */
  ownOrigins: (c: Context) => readonly string[];
  /** Further origins, each trusted on its paths only. */
  trusted?: readonly TrustedOrigin[];
}

/** The server's own origin as the request reached it: right when no proxy stands in front. */
export const requestOrigin = (c: Context): string => new URL(c.req.url).origin;

/** The middleware; runs before authentication, so no credential is even looked at for a refused request. */
export function refuseCrossSite(policy: OriginPolicy): MiddlewareHandler {
  const trusted = policy.trusted ?? [];
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const path = c.req.path;
    if (origin !== undefined && trusted.some((t) => t.origin === origin && path.startsWith(t.pathPrefix))) {
      return next();
    }
    if (origin !== undefined && !policy.ownOrigins(c).includes(origin)) {
      const shown = JSON.stringify(origin.slice(0, 200));
      return sendError(
        c,
        'FORBIDDEN',
        `a ${c.req.method} from origin ${shown} is refused: only this site may change things`,
      );
    }
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && FOREIGN_SITES.has(site)) {
      return sendError(c, 'FORBIDDEN', `a ${site} ${c.req.method} is refused: only this site may change things`);
    }
    return next();
  };
}
