/**
 * OpenID Connect (CAIRN_AUTH=oidc) through openid-client and jose — no hand-made crypto or JWT
 * parsing. The web page signs in with the authorization-code flow and PKCE; the session that
 * follows lives in an HttpOnly cookie (sessions.ts). Scripts send the provider's JWT as a bearer
 * token, verified against the issuer's published keys (JWKS) with its issuer and audience.
 * Roles come from one configurable claim.
 */
import { randomBytes } from 'node:crypto';
import type { Context, Env, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import * as openid from 'openid-client';
import type { OidcSettings } from '../../../config/auth-config';
import { isLoopbackHost } from '../../../config/auth-config';
import { requestSecrets } from '../errors';
import { cookieOptions, type SessionStore } from './sessions';
import { rolesFrom, type Principal } from './principal';
import type { Log } from '../../redacted-log';

/** The cookie tying a sign-in's return to the server-side state of its start. */
const LOGIN_COOKIE = 'cairn_login';
/** How long a sign-in may take at the provider. */
const LOGIN_TTL_MS = 10 * 60 * 1000;

/** The sign-in routes. */
export const AUTH_PATHS = { login: '/auth/login', callback: '/auth/callback', logout: '/auth/logout' } as const;

interface PendingLogin {
  codeVerifier: string;
  state: string;
  nonce: string;
  returnTo: string;
  startedAt: number;
}

/** The principal a token's claims describe. */
export function principalOfClaims(
  claims: Record<string, unknown>,
  rolesClaim: string,
  method: Principal['method'],
): Principal {
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  const nameClaim = [claims.name, claims.preferred_username, claims.email].find((v) => typeof v === 'string');
  return {
    id: sub,
    ...(typeof nameClaim === 'string' ? { name: nameClaim } : {}),
    roles: rolesFrom(claims[rolesClaim]),
    method,
  };
}

/** Only a provider on this machine may be reached over plain http (tests, local development). */
function insecureAllowed(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** Where a sign-in may send the browser back to: a path of this server, nothing else. */
function safeReturn(value: string | undefined): string {
  return value !== undefined && /^\/(?![/\\])[^\s]*$/.test(value) ? value : '/';
}

/** One configured provider: sign-in routes, sessions and bearer JWT verification. */
export class OidcProvider {
  private readonly pending = new Map<string, PendingLogin>();
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  private constructor(
    private readonly settings: OidcSettings,
    private readonly client: openid.Configuration,
    private readonly sessions: SessionStore,
    private readonly log: Log,
  ) {
    const jwksUri = client.serverMetadata().jwks_uri;
    if (!jwksUri) throw new Error(`CAIRN_OIDC_ISSUER ${settings.issuer}: the provider publishes no jwks_uri`);
    this.jwks = createRemoteJWKSet(new URL(jwksUri));
  }

  /** Reads the provider's discovery document; throws when it cannot be reached or is not the issuer's. */
  static async discover(settings: OidcSettings, sessions: SessionStore, log: Log): Promise<OidcProvider> {
    const auth = settings.clientSecret ? openid.ClientSecretBasic(settings.clientSecret) : openid.None();
    const options = insecureAllowed(settings.issuer) ? { execute: [openid.allowInsecureRequests] } : undefined;
    const client = await openid.discovery(new URL(settings.issuer), settings.clientId, undefined, auth, options);
    return new OidcProvider(settings, client, sessions, log);
  }

  /** The principal of a bearer JWT, or undefined when it is not one this issuer signed for us, or expired. */
  async verifyBearer(token: string, method: Principal['method']): Promise<Principal | undefined> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: this.client.serverMetadata().issuer,
        audience: this.settings.audience,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch {
      return undefined;
    }
    return principalOfClaims(payload, this.settings.rolesClaim, method);
  }

  /** Registers `/auth/login`, `/auth/callback` and `/auth/logout`. */
  registerRoutes<E extends Env>(app: Hono<E>): void {
    app.get(AUTH_PATHS.login, (c) => this.login(c));
    app.get(AUTH_PATHS.callback, (c) => this.callback(c));
    app.get(AUTH_PATHS.logout, (c) => {
      this.sessions.end(c);
      return c.redirect('/', 302);
    });
  }

  private async login(c: Context): Promise<Response> {
    this.sweep();
    const codeVerifier = openid.randomPKCECodeVerifier();
    const pending: PendingLogin = {
      codeVerifier,
      state: openid.randomState(),
      nonce: openid.randomNonce(),
      returnTo: safeReturn(c.req.query('returnTo')),
      startedAt: Date.now(),
    };
    const id = randomBytes(24).toString('base64url');
    this.pending.set(id, pending);
    setCookie(c, LOGIN_COOKIE, id, cookieOptions(c, LOGIN_TTL_MS / 1000));
    const url = openid.buildAuthorizationUrl(this.client, {
      redirect_uri: new URL(AUTH_PATHS.callback, c.req.url).href,
      scope: this.settings.scopes,
      code_challenge: await openid.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return c.redirect(url.href, 302);
  }

  private async callback(c: Context): Promise<Response> {
    const id = getCookie(c, LOGIN_COOKIE);
    const pending = id === undefined ? undefined : this.pending.get(id);
    if (id !== undefined) this.pending.delete(id);
    deleteCookie(c, LOGIN_COOKIE, { path: '/' });
    if (!pending || Date.now() - pending.startedAt > LOGIN_TTL_MS) {
      return c.text('This sign-in expired or was not started here; start again at /auth/login.', 400);
    }
    let principal: Principal;
    let expiresAt: number | undefined;
    try {
      const tokens = await openid.authorizationCodeGrant(this.client, new URL(c.req.url), {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('the provider returned no ID token');
      // Roles and names may come only from the userinfo endpoint, depending on the provider.
      const info = this.client.serverMetadata().userinfo_endpoint
        ? await openid.fetchUserInfo(this.client, tokens.access_token, idClaims.sub)
        : {};
      principal = principalOfClaims({ ...info, ...idClaims }, this.settings.rolesClaim, 'web');
      expiresAt = typeof idClaims.exp === 'number' ? idClaims.exp * 1000 : undefined;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.log.error(`OIDC sign-in failed: ${why}`, undefined, requestSecrets(c));
      return c.text('The sign-in failed; see the server log.', 401);
    }
    this.sessions.start(c, principal, expiresAt);
    return c.redirect(pending.returnTo, 302);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, p] of this.pending) if (now - p.startedAt > LOGIN_TTL_MS) this.pending.delete(id);
  }
}
