/**
 * A real OpenID Connect provider (the `oidc-provider` package, certified by the OpenID
 * Foundation) on loopback, for the sign-in tests. Run as its own Node process — the package is
 * an ES module Jest cannot load — with the client in the environment (OIDC_CLIENT_ID,
 * OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI). It prints one JSON line `{ "issuer": "<url>" }` when
 * it listens. Its development login form accepts any password; the accounts below carry names
 * and Cairn roles in the `roles` claim (scope `roles`), any other login has no role — or those of
 * OIDC_ACCOUNTS_FILE, read at every lookup, so a test may change someone's roles mid-session.
 * With OIDC_REFRESH_TOKENS=on the client gets refresh tokens; with OIDC_POST_LOGOUT_REDIRECT_URI
 * its RP-initiated logout may send the browser back there.
 */
const { readFileSync } = require('node:fs');
const { createServer } = require('node:http');

/** @type {Record<string, { name: string, roles: string[] }>} */
const ACCOUNTS = {
  alice: { name: 'Alice Approver', roles: ['approver'] },
  victor: { name: 'Victor Viewer', roles: ['viewer'] },
};

/** The accounts now: the file's when one is named, else the ones above. */
function accounts() {
  const file = process.env.OIDC_ACCOUNTS_FILE;
  return file ? JSON.parse(readFileSync(file, 'utf8')) : ACCOUNTS;
}

async function main() {
  const { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI, OIDC_POST_LOGOUT_REDIRECT_URI } = process.env;
  const refresh = process.env.OIDC_REFRESH_TOKENS === 'on';
  if (!OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET || !OIDC_REDIRECT_URI) {
    throw new Error('OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_REDIRECT_URI are required');
  }
  const { default: Provider } = await import('oidc-provider');
  // Bind first to learn the port: the issuer URL names it.
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: [OIDC_REDIRECT_URI],
        ...(OIDC_POST_LOGOUT_REDIRECT_URI ? { post_logout_redirect_uris: [OIDC_POST_LOGOUT_REDIRECT_URI] } : {}),
        grant_types: refresh ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'profile', 'roles'],
    claims: { openid: ['sub'], profile: ['name'], roles: ['roles'] },
    findAccount: (/** @type {unknown} */ _ctx, /** @type {string} */ id) => ({
      accountId: id,
      claims: () => {
        const known = accounts()[id];
        return { sub: id, name: known?.name ?? id, roles: known?.roles ?? [] };
      },
    }),
    // A refresh token whenever the client may use one (no offline_access consent dance in tests).
    issueRefreshToken: (/** @type {unknown} */ _ctx, /** @type {{ grantTypeAllowed(t: string): boolean }} */ client) =>
      client.grantTypeAllowed('refresh_token'),
    cookies: { keys: ['cairn-test-provider-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  server.on('request', provider.callback());
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
