/**
 * Builds the authenticator for a configuration when the server starts: reads the tokens file,
 * discovers the OpenID Connect provider, and refuses `none` on an address other machines reach.
 * Every problem throws with a message naming the variable to fix.
 */
import { refuseUnauthenticated, type AuthConfig } from '../../../config/auth-config';
import { noAuthentication, type Authenticator } from './authenticate';
import { OidcProvider } from './oidc';
import { SessionStore } from './sessions';
import { readTokensFile, TokenTable } from './token-table';
import { createLog, type Log } from '../../redacted-log';

/** The authenticator for `auth`, for a server listening on `listenHost`. */
export async function createAuthenticator(
  auth: AuthConfig,
  listenHost: string,
  log: Log = createLog(
    auth.mode === 'none' ? [] : [auth.apiToken, auth.mode === 'oidc' ? auth.oidc.clientSecret : undefined],
  ),
): Promise<Authenticator> {
  const refusal = refuseUnauthenticated(auth, listenHost);
  if (refusal !== undefined) throw new Error(refusal);
  if (auth.mode === 'none') return noAuthentication();
  const tokens = new TokenTable(auth.tokensFile ? readTokensFile(auth.tokensFile) : [], auth.apiToken);
  const sessions = new SessionStore(Date.now, auth.mode === 'oidc' ? auth.oidc.rolesMaxAgeMs : undefined);
  if (auth.mode === 'tokens') return { mode: 'tokens', tokens, sessions };
  try {
    const oidc = await OidcProvider.discover(auth.oidc, sessions, log);
    return { mode: 'oidc', tokens, sessions, oidc };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`CAIRN_OIDC_ISSUER ${auth.oidc.issuer}: the provider's discovery failed: ${why}`, { cause: err });
  }
}

/** The authenticator of a bare CAIRN_API_TOKEN (tests and embedders that pass only a token). */
export function apiTokenAuthentication(apiToken: string | undefined): Authenticator {
  if (apiToken === undefined) return noAuthentication();
  return { mode: 'tokens', tokens: new TokenTable([], apiToken), sessions: new SessionStore() };
}
