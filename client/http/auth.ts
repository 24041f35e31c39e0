/**
 * Bearer-token guard for `/api/*` (docs/contracts.md#http-api): when a token is configured, a request without
 * `Authorization: Bearer <token>` or with another token gets 401 UNAUTHORIZED. Tokens are
 * compared by their SHA-256 digests in constant time, so neither content nor length leaks.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { sendError } from './errors';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** True when `presented` equals `expected`, in time independent of where they differ. */
export function tokensMatch(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The middleware; with no token configured every request passes. */
export function requireBearer(token: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (token === undefined) return next();
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    if (!match?.[1]) {
      c.header('WWW-Authenticate', 'Bearer');
      return sendError(c, 'UNAUTHORIZED', 'missing "Authorization: Bearer <token>" header');
    }
    if (!tokensMatch(match[1], token)) {
      c.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      return sendError(c, 'UNAUTHORIZED', 'invalid token');
    }
    return next();
  };
}
