/**
 * A real OpenID Connect provider (the `oidc-provider` package, certified by the OpenID
 * Foundation) on loopback, for the sign-in tests. Run as its own Node process — the package is
 * an ES module Jest cannot load — with the client in the environment (OIDC_CLIENT_ID,
 * OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI). It prints one JSON line `{ "issuer": "<url>" }` when
 * it listens. Its development login form accepts any password; the accounts below carry names
 * and Cairn roles in the `roles` claim (scope `roles`), any other login has no role.
 */
const { createServer } = require('node:http');

/** @type {Record<string, { name: string, roles: string[] }>} */
const ACCOUNTS = {
  alice: { name: 'Alice Approver', roles: ['approver'] },
  victor: { name: 'Victor Viewer', roles: ['viewer'] },
};

async function main() {
  const { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI } = process.env;
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
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'profile', 'roles'],
    claims: { openid: ['sub'], profile: ['name'], roles: ['roles'] },
    findAccount: (/** @type {unknown} */ _ctx, /** @type {string} */ id) => ({
      accountId: id,
      claims: () => ({ sub: id, name: ACCOUNTS[id]?.name ?? id, roles: ACCOUNTS[id]?.roles ?? [] }),
    }),
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
