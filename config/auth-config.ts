/**
 * Who may use the HTTP API, the web page and the event stream (docs/operations.md#authentication-and-roles):
 * the environment variables of authentication as one zod shape (merged into config.ts's schema)
 * and their resolution into one of three modes — `none`, `tokens` (hashed API tokens from a file,
 * and/or the single admin token CAIRN_API_TOKEN) or `oidc` (sign-in with an OpenID Connect
 * provider; bearer JWTs checked against its keys). Reading the tokens file and talking to the
 * provider happen when the server starts, not here: this stays pure.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

/** The authentication variables, by their contract names. */
export const authEnvShape = {
  /** `none` | `tokens` | `oidc`; by default the mode the other variables imply. */
  CAIRN_AUTH: z.enum(['none', 'tokens', 'oidc'], { error: 'expected none, tokens or oidc' }).optional(),
  /** JSON list of `{ principal, name?, roles, tokenSha256 }`. */
  CAIRN_TOKENS_FILE: optionalText,
  CAIRN_OIDC_ISSUER: z
    .url({ protocol: /^https?$/, error: 'expected the issuer URL, e.g. https://id.example.com' })
    .optional(),
  CAIRN_OIDC_CLIENT_ID: optionalText,
  CAIRN_OIDC_CLIENT_SECRET: optionalText,
  /** The `aud` a bearer JWT must carry; the client id by default. */
  CAIRN_OIDC_AUDIENCE: optionalText,
  /** The claim holding the roles (a list or a space-separated string); `roles` by default. */
  CAIRN_OIDC_ROLES_CLAIM: optionalText,
  /** Scopes asked for at sign-in, space-separated; `openid profile` by default. */
  CAIRN_OIDC_SCOPES: optionalText,
  /**
   * How long a signed-in session's roles are trusted before they are read again from the provider
   * (with its refresh token; without one the session ends): 600000 (10 minutes) by default.
   */
  CAIRN_OIDC_ROLES_MAX_AGE_MS: z.coerce
    .number({ error: 'expected milliseconds' })
    .int('expected a whole number')
    .min(10_000, 'expected at least 10000 (10 seconds)')
    .max(8 * 60 * 60 * 1000, 'expected at most 28800000 (8 hours, the longest a session lives)')
    .optional(),
};

type AuthEnv = { [K in keyof typeof authEnvShape]?: z.output<(typeof authEnvShape)[K]> } & {
  CAIRN_API_TOKEN?: string;
};

/** The OpenID Connect settings. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  audience: string;
  rolesClaim: string;
  scopes: string;
  /** How long a session's roles are trusted (CAIRN_OIDC_ROLES_MAX_AGE_MS); 10 minutes when absent. */
  rolesMaxAgeMs?: number;
}

/** The resolved mode. `apiToken` (CAIRN_API_TOKEN) is one more admin token in every mode but `none`. */
export type AuthConfig =
  | { mode: 'none' }
  | { mode: 'tokens'; tokensFile?: string; apiToken?: string }
  | { mode: 'oidc'; oidc: OidcSettings; tokensFile?: string; apiToken?: string };

/**
 * Resolves the mode; returns the problems as `NAME: message` lines instead when the variables
 * do not fit together (oidc without issuer or client id, tokens without any token, a token
 * given while `none` is asked for).
 */
export function resolveAuth(e: AuthEnv): AuthConfig | { problems: string[] } {
  const mode =
    e.CAIRN_AUTH ?? (e.CAIRN_OIDC_ISSUER ? 'oidc' : e.CAIRN_TOKENS_FILE || e.CAIRN_API_TOKEN ? 'tokens' : 'none');
  const tokens = {
    ...(e.CAIRN_TOKENS_FILE ? { tokensFile: e.CAIRN_TOKENS_FILE } : {}),
    ...(e.CAIRN_API_TOKEN ? { apiToken: e.CAIRN_API_TOKEN } : {}),
  };
  if (mode === 'none') {
    if (e.CAIRN_API_TOKEN || e.CAIRN_TOKENS_FILE)
      return {
        problems: ['CAIRN_AUTH: none turns authentication off, but CAIRN_API_TOKEN or CAIRN_TOKENS_FILE is set'],
      };
    return { mode };
  }
  if (mode === 'tokens') {
    if (!e.CAIRN_TOKENS_FILE && !e.CAIRN_API_TOKEN)
      return { problems: ['CAIRN_AUTH: tokens needs CAIRN_TOKENS_FILE or CAIRN_API_TOKEN'] };
    return { mode, ...tokens };
  }
  const problems: string[] = [];
  if (!e.CAIRN_OIDC_ISSUER) problems.push('CAIRN_OIDC_ISSUER: oidc needs the issuer URL');
  if (!e.CAIRN_OIDC_CLIENT_ID) problems.push('CAIRN_OIDC_CLIENT_ID: oidc needs the client id');
  if (!e.CAIRN_OIDC_ISSUER || !e.CAIRN_OIDC_CLIENT_ID) return { problems };
  const oidc: OidcSettings = {
    issuer: e.CAIRN_OIDC_ISSUER,
    clientId: e.CAIRN_OIDC_CLIENT_ID,
    ...(e.CAIRN_OIDC_CLIENT_SECRET ? { clientSecret: e.CAIRN_OIDC_CLIENT_SECRET } : {}),
    audience: e.CAIRN_OIDC_AUDIENCE ?? e.CAIRN_OIDC_CLIENT_ID,
    rolesClaim: e.CAIRN_OIDC_ROLES_CLAIM ?? 'roles',
    scopes: e.CAIRN_OIDC_SCOPES ?? 'openid profile',
    ...(e.CAIRN_OIDC_ROLES_MAX_AGE_MS !== undefined ? { rolesMaxAgeMs: e.CAIRN_OIDC_ROLES_MAX_AGE_MS } : {}),
  };
  return { mode, oidc, ...tokens };
}

/** Whether `host` (a listen address or name) can only be reached from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/**
 * Why the server must not start with this mode on `listenHost`, or undefined: without
 * authentication anyone who reaches the port could start agents and approve their writes.
 */
export function refuseUnauthenticated(auth: AuthConfig, listenHost: string): string | undefined {
  if (auth.mode !== 'none' || isLoopbackHost(listenHost)) return undefined;
  return (
    `CAIRN_AUTH is none but CAIRN_HTTP_HOST is ${JSON.stringify(listenHost)}, which is not a loopback address: ` +
    'anyone who reaches it could start agents and approve their writes. Set CAIRN_API_TOKEN, ' +
    'CAIRN_AUTH=tokens with CAIRN_TOKENS_FILE, or CAIRN_AUTH=oidc (see docs/operations.md), or listen on 127.0.0.1.'
  );
}
