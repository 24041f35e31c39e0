/**
 * Web page sessions after an OpenID Connect sign-in: a random id in an HttpOnly, SameSite=Lax
 * cookie names a principal kept in this process's memory. The cookie holds no claim, so nothing in
 * it can be forged or read; sessions end when the server restarts, and the page signs in again.
 *
 * A session's roles are the provider's word at one moment, and the provider may take a role away:
 * so they are trusted for at most `rolesMaxAgeMs` (CAIRN_OIDC_ROLES_MAX_AGE_MS, 10 minutes by
 * default), not for the session's whole life. Then they are read again from the provider — with
 * the refresh token it gave at sign-in — or, when it gave none or refuses, the session ends and
 * the page signs in again (silently at the provider while its own session lasts). A session never
 * outlives the ID token it last got, nor 8 hours from its sign-in.
 *
 * Over https (CAIRN_PUBLIC_URL) cookies are `__Host-` prefixed: the browser then takes them only
 * Secure, for the whole site and from this host, so a sibling subdomain cannot plant a session.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { Principal } from './principal';
import { servedOverHttps } from '../public-url';

/** The session cookie's name (`__Host-cairn_session` over https). */
export const SESSION_COOKIE = 'cairn_session';
/** Longest a session lives from its sign-in, whatever the provider says. */
const MAX_SESSION_MS = 8 * 60 * 60 * 1000;
/** How long a session's roles are trusted before they are read from the provider again. */
export const DEFAULT_ROLES_MAX_AGE_MS = 10 * 60 * 1000;

/** What the provider gave at sign-in (or the last renewal), kept in memory only. */
export interface SessionTokens {
  /** The refresh token, when the provider gave one: roles are renewed with it. */
  refreshToken?: string;
  /** The ID token: the provider's logout is told who signs out (`id_token_hint`). */
  idToken?: string;
}

/** A renewal: the principal as the provider describes it now, its tokens and when they expire. */
export interface SessionRenewal {
  principal: Principal;
  tokens: SessionTokens;
  expiresAt?: number;
}

/** Reads a session's principal again from the provider; undefined when it cannot (the session ends). */
export type RenewSession = (principal: Principal, tokens: SessionTokens) => Promise<SessionRenewal | undefined>;

interface Session {
  principal: Principal;
  tokens: SessionTokens;
  /** The sign-in's time plus 8 hours: the latest the session may end. */
  latestEnd: number;
  /** When the session ends unless renewed: the ID token's expiry, at most `latestEnd`. */
  expiresAt: number;
  /** When its roles must be read again. */
  rolesUntil: number;
  /** A renewal under way, which concurrent requests wait for. */
  renewing?: Promise<Principal | undefined>;
}

/**
 * Cookie attributes: HttpOnly, SameSite=Lax (the sign-in returns by a cross-site redirect), Path=/
 * and no Domain; Secure and `__Host-` prefixed when browsers reach the server over
 * https — by CAIRN_PUBLIC_URL behind a TLS proxy.
 */
export function cookieOptions(c: Context, maxAgeSeconds: number): CookieOptions {
  const base = { httpOnly: true, sameSite: 'Lax', path: '/', maxAge: maxAgeSeconds } as const;
  return servedOverHttps(c) ? { ...base, secure: true, prefix: 'host' } : { ...base, secure: false };
}

/** The attributes that clear a cookie set with cookieOptions. */
export function clearedCookieOptions(c: Context): CookieOptions {
  return servedOverHttps(c) ? { path: '/', secure: true, prefix: 'host' } : { path: '/', secure: false };
}

/** Reads the named cookie as this server sets it (prefixed over https, and only then). */
export function readCookie(c: Context, name: string): string | undefined {
  return servedOverHttps(c) ? getCookie(c, name, 'host') : getCookie(c, name);
}

/** The sessions of this server. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private renew: RenewSession | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly rolesMaxAgeMs: number = DEFAULT_ROLES_MAX_AGE_MS,
  ) {}

  /** How sessions' roles are read again (the OpenID Connect provider's refresh); without it they end. */
  renewWith(renew: RenewSession): void {
    this.renew = renew;
  }

  /** Starts a session for `principal` and sets its cookie on the response. */
  start(c: Context, principal: Principal, tokens: SessionTokens = {}, expiresAt?: number): void {
    this.sweep();
    const id = randomBytes(32).toString('base64url');
    const now = this.now();
    const latestEnd = now + MAX_SESSION_MS;
    const until = Math.min(expiresAt ?? Infinity, latestEnd);
    this.sessions.set(id, { principal, tokens, latestEnd, expiresAt: until, rolesUntil: now + this.rolesMaxAgeMs });
    // The cookie lasts the session's longest life: renewals keep it, the server ends it sooner.
    setCookie(c, SESSION_COOKIE, id, cookieOptions(c, Math.max(1, Math.floor((latestEnd - now) / 1000))));
  }

  /**
   * The principal of the request's session cookie, if it names a live session — its roles read
   * again from the provider first when they are older than the roles' maximum age.
   */
  async principal(c: Context): Promise<Principal | undefined> {
    const id = readCookie(c, SESSION_COOKIE);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (id === undefined || !session) return undefined;
    const now = this.now();
    if (now >= session.latestEnd) return this.drop(id);
    if (now < session.rolesUntil && now < session.expiresAt) return session.principal;
    session.renewing ??= this.renewed(id, session);
    return session.renewing;
  }

  /** The ID token of the request's session, for the provider's logout. */
  idToken(c: Context): string | undefined {
    const id = readCookie(c, SESSION_COOKIE);
    return id === undefined ? undefined : this.sessions.get(id)?.tokens.idToken;
  }

  /** Ends the request's session and clears its cookie. */
  end(c: Context): void {
    const id = readCookie(c, SESSION_COOKIE);
    if (id !== undefined) this.sessions.delete(id);
    deleteCookie(c, SESSION_COOKIE, clearedCookieOptions(c));
  }

  /** Renews a session whose roles are due, or ends it when that cannot be done. */
  private async renewed(id: string, session: Session): Promise<Principal | undefined> {
    const renewal =
      this.renew && session.tokens.refreshToken ? await this.renew(session.principal, session.tokens) : undefined;
    if (!renewal || renewal.principal.id !== session.principal.id) return this.drop(id);
    const now = this.now();
    Object.assign(session, {
      principal: renewal.principal,
      tokens: { ...session.tokens, ...renewal.tokens },
      expiresAt: Math.min(renewal.expiresAt ?? session.latestEnd, session.latestEnd),
      rolesUntil: now + this.rolesMaxAgeMs,
      renewing: undefined,
    });
    return session.principal;
  }

  private drop(id: string): undefined {
    this.sessions.delete(id);
    return undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, session] of this.sessions) {
      if (now >= session.latestEnd || (now >= session.expiresAt && !session.tokens.refreshToken)) {
        this.sessions.delete(id);
      }
    }
  }
}
