/**
 * Web page sessions after an OpenID Connect sign-in: a random id in an HttpOnly, SameSite=Lax
 * cookie names a principal kept in this process's memory until it expires (the ID token's expiry,
 * at most 8 hours). The cookie holds no claim, so nothing in it can be forged or read; sessions
 * end when the server restarts, and the page signs in again.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Principal } from './principal';
import { servedOverHttps } from '../public-url';

/** The session cookie's name. */
export const SESSION_COOKIE = 'cairn_session';
/** Longest a session lives, whatever the provider says. */
const MAX_SESSION_MS = 8 * 60 * 60 * 1000;

interface Session {
  principal: Principal;
  expiresAt: number;
}

/**
 * Cookie attributes: HttpOnly, SameSite=Lax (the sign-in returns by a cross-site redirect), and
 * Secure when browsers reach the server over https — by CAIRN_PUBLIC_URL behind a TLS proxy.
 */
export function cookieOptions(c: Context, maxAgeSeconds: number) {
  return { httpOnly: true, sameSite: 'Lax', secure: servedOverHttps(c), path: '/', maxAge: maxAgeSeconds } as const;
}

/** The attributes that clear a cookie set with cookieOptions. */
export function clearedCookieOptions(c: Context) {
  return { path: '/', secure: servedOverHttps(c) } as const;
}

/** The sessions of this server. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Starts a session for `principal` and sets its cookie on the response. */
  start(c: Context, principal: Principal, expiresAt?: number): void {
    this.sweep();
    const id = randomBytes(32).toString('base64url');
    const until = Math.min(expiresAt ?? Infinity, this.now() + MAX_SESSION_MS);
    this.sessions.set(id, { principal, expiresAt: until });
    setCookie(c, SESSION_COOKIE, id, cookieOptions(c, Math.max(1, Math.floor((until - this.now()) / 1000))));
  }

  /** The principal of the request's session cookie, if it names a live session. */
  principal(c: Context): Principal | undefined {
    const id = getCookie(c, SESSION_COOKIE);
    if (id === undefined) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return session.principal;
  }

  /** Ends the request's session and clears its cookie. */
  end(c: Context): void {
    const id = getCookie(c, SESSION_COOKIE);
    if (id !== undefined) this.sessions.delete(id);
    deleteCookie(c, SESSION_COOKIE, clearedCookieOptions(c));
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(id);
  }
}
