/**
 * Where browsers reach this server: `CAIRN_PUBLIC_URL` when it is served behind a proxy (TLS
 * ends there, so the request Node sees says `http:`), else the request's own origin. It decides
 * whether cookies are `Secure`, the OpenID Connect `redirect_uri`, and the origin a page's
 * requests must come from (origin-guard.ts): behind the TLS proxy of docs/security.md, without it, the
 * session cookie was never Secure, `redirect_uri` was `http://` and every page POST was refused.
 */
import type { Context, MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    /** The configured public origin (`https://cairn.example.com`), when one is set. */
    publicOrigin: string | undefined;
  }
}

/** Records the configured public origin on each request, for the helpers below. */
export function publicSite(publicOrigin: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    c.set('publicOrigin', publicOrigin);
    return next();
  };
}

/** The origin browsers use for this server: the configured one, else the request's own. */
export function publicOriginOf(c: Context): string {
  return c.get('publicOrigin') ?? new URL(c.req.url).origin;
}

/** `path` (and query) on the public origin, e.g. the OpenID Connect callback. */
export function publicUrlOf(c: Context, pathAndQuery: string): URL {
  return new URL(pathAndQuery, publicOriginOf(c));
}

/** Whether browsers reach this server over https: then every cookie it sets is `Secure`. */
export function servedOverHttps(c: Context): boolean {
  return publicOriginOf(c).startsWith('https:');
}
