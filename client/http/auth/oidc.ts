/**
 * OpenID Connect (CAIRN_AUTH=oidc) through openid-client and jose — no hand-made crypto or JWT
 * parsing. The web page signs in with the authorization-code flow and PKCE; the session that
 * follows lives in an HttpOnly cookie (sessions.ts), its roles renewed with the provider's refresh
 * token when they are due; signing out ends the provider's session too (oidc-logout.ts). Scripts
 * send the provider's JWT as a bearer token, verified against the issuer's published keys (JWKS)
 * with its issuer and audience. Roles come from one configurable claim.
 */
import type { Context, Env, Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import * as openid from 'openid-client';
import type { OidcSettings } from '../../../config/auth-config';
import { isLoopbackHost } from '../../../config/auth-config';
import { requestSecrets } from '../errors';
import { registerLogout } from './oidc-logout';
import {
  clearedCookieOptions,
  cookieOptions,
  readCookie,
  type SessionRenewal,
  type SessionStore,
  type SessionTokens,
} from './sessions';
import { publicUrlOf } from '../public-url';
import { rolesFrom, type Principal } from './principal';
import { LOGIN_TTL_SECONDS, LoginSealer, MAX_RETURN_TO_CHARS, type PendingLogin } from './sealed-login';
import type { Log } from '../../redacted-log';

/** The cookie carrying a sign-in's sealed state from its start to its return (sealed-login.ts). */
const LOGIN_COOKIE = 'cairn_login';

/** The sign-in routes. */
export const AUTH_PATHS = { login: '/auth/login', callback: '/auth/callback', logout: '/auth/logout' } as const;

/** The principal a token's claims describe: a bearer JWT's (`oidc-bearer`) or a session's (`oidc-session`, `web`). */
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
    authenticatedBy: method === 'web' ? 'oidc-session' : 'oidc-bearer',
  };
}

/** Only a provider on this machine may be reached over plain http (tests, local development). */
function insecureAllowed(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/**
 * Where a sign-in may send the browser back to: a path of this server, nothing else, and not a
 * long one — printable ASCII only. It becomes the `Location` header of the callback's answer: a
 * control character there (DEL, 0x7f, slipped past a whitespace test) made Node refuse the header
 * after the session had started, a 500 logged outside the redacting log. The page's own paths are
 * ASCII (the browser sends others percent-encoded).
 */
export function safeReturn(value: string | undefined): string {
  if (value === undefined || value.length > MAX_RETURN_TO_CHARS) return '/';
  return /^\/(?![/\\])[\x21-\x7e]*$/.test(value) ? value : '/';
}

/** One configured provider: sign-in routes, sessions and bearer JWT verification. */
export class OidcProvider {
  private readonly sealer = new LoginSealer();
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
    sessions.renewWith((principal, tokens) => this.renew(principal, tokens));
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

  /** Registers `/auth/login`, `/auth/callback` and `/auth/logout` (GET: a confirmation; POST: sign out). */
  registerRoutes<E extends Env>(app: Hono<E>): void {
    app.get(AUTH_PATHS.login, (c) => this.login(c));
    app.get(AUTH_PATHS.callback, (c) => this.callback(c));
    registerLogout(app, {
      path: AUTH_PATHS.logout,
      sessions: this.sessions,
      endSessionUrl: (c, idToken) => this.endSessionUrl(c, idToken),
    });
  }

  /** The provider's RP-initiated logout for an ID token, back to the page after; undefined when it offers none. */
  private endSessionUrl(c: Context, idToken: string | undefined): URL | undefined {
    if (!this.client.serverMetadata().end_session_endpoint) return undefined;
    return openid.buildEndSessionUrl(this.client, {
      post_logout_redirect_uri: publicUrlOf(c, '/').href,
      ...(idToken ? { id_token_hint: idToken } : {}),
    });
  }

  /**
   * The session's principal as the provider describes it now, by its refresh token: the refreshed
   * ID token's claims over the userinfo endpoint's. Undefined when the provider refuses (the token
   * revoked or expired) or cannot be reached: the session then ends.
   */
  private async renew(principal: Principal, tokens: SessionTokens): Promise<SessionRenewal | undefined> {
    if (!tokens.refreshToken) return undefined;
    try {
      const fresh = await openid.refreshTokenGrant(this.client, tokens.refreshToken);
      const claims = fresh.claims();
      const info = this.client.serverMetadata().userinfo_endpoint
        ? await openid.fetchUserInfo(this.client, fresh.access_token, claims?.sub ?? principal.id)
        : {};
      return {
        principal: principalOfClaims({ ...info, ...claims }, this.settings.rolesClaim, 'web'),
        tokens: {
          refreshToken: fresh.refresh_token ?? tokens.refreshToken,
          ...(fresh.id_token ? { idToken: fresh.id_token } : {}),
        },
        ...(typeof claims?.exp === 'number' ? { expiresAt: claims.exp * 1000 } : {}),
      };
    } catch (err) {
      // The tokens are no configured secret: name them to the redactor, should the error repeat one.
      this.log.error(`OIDC session of ${principal.id} ended: its roles could not be renewed`, err, [
        tokens.refreshToken,
        tokens.idToken,
      ]);
      return undefined;
    }
  }

  private async login(c: Context): Promise<Response> {
    const codeVerifier = openid.randomPKCECodeVerifier();
    const pending: PendingLogin = {
      codeVerifier,
      state: openid.randomState(),
      nonce: openid.randomNonce(),
      returnTo: safeReturn(c.req.query('returnTo')),
    };
    // Nothing is kept here: the sign-in's state travels sealed in its cookie.
    setCookie(c, LOGIN_COOKIE, await this.sealer.seal(pending), cookieOptions(c, LOGIN_TTL_SECONDS));
    const url = openid.buildAuthorizationUrl(this.client, {
      // The public URL's (CAIRN_PUBLIC_URL): behind a TLS proxy the request itself says http.
      redirect_uri: publicUrlOf(c, AUTH_PATHS.callback).href,
      scope: this.settings.scopes,
      code_challenge: await openid.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return c.redirect(url.href, 302);
  }

  private async callback(c: Context): Promise<Response> {
    const sealed = readCookie(c, LOGIN_COOKIE);
    const pending = sealed === undefined ? undefined : await this.sealer.open(sealed);
    deleteCookie(c, LOGIN_COOKIE, clearedCookieOptions(c));
    if (!pending) {
      return c.text('This sign-in expired or was not started here; start again at /auth/login.', 400);
    }
    let principal: Principal;
    let expiresAt: number | undefined;
    let kept: SessionTokens;
    try {
      // The URL the provider sent the browser to, whose origin and path are the redirect_uri.
      const returned = publicUrlOf(c, `${c.req.path}${new URL(c.req.url).search}`);
      const tokens = await openid.authorizationCodeGrant(this.client, returned, {
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
      // In memory only: the refresh token renews the roles, the ID token names who signs out.
      kept = {
        ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
        ...(tokens.id_token ? { idToken: tokens.id_token } : {}),
      };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.log.error(`OIDC sign-in failed: ${why}`, undefined, requestSecrets(c));
      return c.text('The sign-in failed; see the server log.', 401);
    }
    // Checked again: a sign-in sealed before the check tightened may still come back.
    const returnTo = safeReturn(pending.returnTo);
    this.sessions.start(c, principal, kept, expiresAt);
    return c.redirect(returnTo, 302);
  }
}
