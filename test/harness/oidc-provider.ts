/**
 * Runs the real OpenID Connect provider of oidc-provider-process.js (`oidc-provider`) as
 * a child process on loopback and returns its issuer URL once it listens.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { OidcSettings } from '../../config/auth-config';

export interface OidcProviderProcess {
  issuer: string;
  close(): Promise<void>;
}

/**
 * Starts the provider for one confidential client with one redirect URI; optionally where its
 * logout may return to, with refresh tokens, and with accounts read from a JSON file
 * (`{ "<login>": { "name", "roles" } }`) at every lookup.
 */
export async function startOidcProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri?: string;
  refreshTokens?: boolean;
  accountsFile?: string;
}): Promise<OidcProviderProcess> {
  const child = spawn(process.execPath, [join(__dirname, 'oidc-provider-process.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      OIDC_CLIENT_ID: client.clientId,
      OIDC_CLIENT_SECRET: client.clientSecret,
      OIDC_REDIRECT_URI: client.redirectUri,
      ...(client.postLogoutRedirectUri ? { OIDC_POST_LOGOUT_REDIRECT_URI: client.postLogoutRedirectUri } : {}),
      ...(client.refreshTokens ? { OIDC_REFRESH_TOKENS: 'on' } : {}),
      ...(client.accountsFile ? { OIDC_ACCOUNTS_FILE: client.accountsFile } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    child.once('exit', (code) => reject(new Error(`the OIDC provider exited (${code}): ${stderr}`)));
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Cairn's settings for a client of the test provider at `issuer`: the client id is the audience
 * and roles come from the `roles` claim, as every test provider issues them.
 */
export function oidcSettings(
  issuer: string,
  client: { clientId: string; clientSecret?: string; scopes?: string },
): OidcSettings {
  return {
    issuer,
    clientId: client.clientId,
    ...(client.clientSecret !== undefined ? { clientSecret: client.clientSecret } : {}),
    audience: client.clientId,
    rolesClaim: 'roles',
    scopes: client.scopes ?? 'openid profile roles',
  };
}
