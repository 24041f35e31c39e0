/**
 * Authentication and role checks for `/api/*` and the page (docs/operations.md#authentication-and-roles).
 * A request is authenticated by, in order: a bearer token from the token table (CAIRN_TOKENS_FILE,
 * CAIRN_API_TOKEN), a bearer JWT of the OpenID Connect issuer, or the web page's session cookie.
 * Then the route's role (route-roles.ts) must be granted: 401 UNAUTHORIZED without valid
 * credentials, 403 FORBIDDEN without the role. With `none` every request acts as an anonymous admin.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AuthConfig } from '../../../config/auth-config';
import { sendError } from '../errors';
import type { OidcProvider } from './oidc';
import { grants, type Principal } from './principal';
import { requiredRoles } from './route-roles';
import { SessionStore } from './sessions';
import { TokenTable } from './token-table';

declare module 'hono' {
  interface ContextVariableMap {
    /** Whether authentication is on (any mode but `none`): then `by` comes from the principal. */
    authOn: boolean;
  }
}

/** Everything a server needs to authenticate requests. */
export interface Authenticator {
  mode: AuthConfig['mode'];
  tokens: TokenTable;
  sessions: SessionStore;
  oidc?: OidcProvider;
}

/** No authentication (loopback only; serve-api.ts refuses it elsewhere). */
export const noAuthentication = (): Authenticator => ({
  mode: 'none',
  tokens: new TokenTable([]),
  sessions: new SessionStore(),
});

/**
 * The anonymous principal of `none`: may do everything, as before authentication existed. Nothing
 * authenticated it, so its method is what the client says it is (`authenticatedBy: none` says so).
 */
const anonymous = (c: Context): Principal => {
  const client = c.req.header('x-cairn-client');
  const method = client === 'cli' || client === 'web' ? client : 'api';
  return { id: 'anonymous', roles: ['admin'], method, authenticatedBy: 'none' };
};

/**
 * The method of a request that sent a bearer credential: `api`, or `cli` when the client says it
 * is Cairn's CLI. Never `web`: that is the page's session only, and a header cannot claim it.
 */
function bearerMethod(c: Context): Principal['method'] {
  return c.req.header('x-cairn-client') === 'cli' ? 'cli' : 'api';
}

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/** Who the request is, or why not (`undefined` with no credentials at all). */
async function identify(auth: Authenticator, c: Context): Promise<Principal | 'invalid' | undefined> {
  const header = c.req.header('authorization');
  if (header !== undefined) {
    const token = BEARER.exec(header)?.[1];
    if (!token) return 'invalid';
    const method = bearerMethod(c);
    const known = auth.tokens.lookup(token, method);
    if (known) return known;
    if (auth.oidc && token.split('.').length === 3) return (await auth.oidc.verifyBearer(token, method)) ?? 'invalid';
    return 'invalid';
  }
  return auth.sessions.principal(c);
}

/**
 * The middleware for `/api/*` and `/codec/*`: sets `principal` and `authOn`, then checks the
 * route's role. A request another site's page made (which a session cookie rides along on) was
 * already refused by the cross-site guard (origin-guard.ts), in every mode.
 */
export function authenticateApi(auth: Authenticator): MiddlewareHandler {
  return async (c, next) => {
    c.set('authOn', auth.mode !== 'none');
    if (auth.mode === 'none') {
      c.set('principal', anonymous(c));
      return next();
    }
    const found = await identify(auth, c);
    if (found === undefined || found === 'invalid') {
      c.header('WWW-Authenticate', found === 'invalid' ? 'Bearer error="invalid_token"' : 'Bearer');
      const why = found === 'invalid' ? 'invalid or expired token' : 'sign in, or send "Authorization: Bearer <token>"';
      return sendError(c, 'UNAUTHORIZED', why);
    }
    const roles = requiredRoles(c.req.method, c.req.path);
    if (!roles.some((role) => grants(found.roles, role))) {
      const held = found.roles.length ? found.roles.join(', ') : 'no role';
      const role = roles.join(' or ');
      return sendError(c, 'FORBIDDEN', `${c.req.method} ${c.req.path} needs the ${role} role; ${found.id} has ${held}`);
    }
    c.set('principal', found);
    return next();
  };
}

/**
 * The page under `oidc`: without a session the browser is sent to sign in and back. In the other
 * modes the page is a static shell that holds no data; its API calls are what is checked.
 */
export function guardPage(auth: Authenticator): MiddlewareHandler {
  return async (c, next) => {
    if (!auth.oidc || c.req.header('authorization') !== undefined) return next();
    if (await auth.sessions.principal(c)) return next();
    return c.redirect(`/auth/login?returnTo=${encodeURIComponent(c.req.path)}`, 302);
  };
}
