/**
 * Sign-ins under way cost the server nothing (client/http/auth/sealed-login.ts): `/auth/login`
 * is open to anyone, and each one used to keep up to 16 KB in a map for ten minutes. Against a
 * real OpenID Connect provider (oidc-provider, its own process on loopback): thousands of
 * sign-ins with long return paths leave the heap where it was, each cookie stays small, and a
 * callback with a forged, altered or foreign cookie is refused. (The whole sign-in, in Chromium:
 * test/browser/oidc-sign-in.test.ts.)
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createAuthenticator } from '../../client/http/auth/create-authenticator';
import type { AuthConfig } from '../../config/auth-config';
import { unusedAgents } from '../harness/config-errors';
import { startOidcProvider, type OidcProviderProcess, oidcSettings } from '../harness/oidc-provider';
import { appOver } from '../harness/http-app';

const CLIENT_ID = 'cairn-web';
const CLIENT_SECRET = 'the-client-secret-of-cairn-web-pending';
const ORIGIN = 'http://127.0.0.1:3000';

let provider: OidcProviderProcess;
beforeAll(async () => {
  provider = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${ORIGIN}/auth/callback`,
  });
});
afterAll(async () => {
  await provider.close();
});

async function oidcApp() {
  const auth: AuthConfig = {
    mode: 'oidc',
    oidc: oidcSettings(provider.issuer, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, scopes: 'openid profile' }),
  };
  return appOver(unusedAgents('sign-in tests call no agent route'), {
    auth: await createAuthenticator(auth, '127.0.0.1'),
  });
}

/** The heap in use after a full garbage collection. */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

/** The `cairn_login` cookie value a response sets. */
function loginCookie(res: Response): string {
  const value = /(?:^|,\s*)cairn_login=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (value === undefined) throw new Error('no cairn_login cookie was set');
  return value;
}

test('4,000 sign-ins with 16 KB return paths keep nothing on the server; each cookie stays small', async () => {
  const app = await oidcApp();
  const longPath = `/agents/${'a'.repeat(16_000)}`;
  const before = heapAfterGc();
  for (let i = 0; i < 4_000; i += 1) {
    const res = await app.request(`${ORIGIN}/auth/login?returnTo=${encodeURIComponent(longPath)}`);
    expect(res.status).toBe(302);
    // Browsers keep cookies up to 4 KB: the sealed sign-in fits, whatever the request asked.
    expect(loginCookie(res).length).toBeLessThan(1024);
  }
  const grown = heapAfterGc() - before;
  // The server is still in use after the measure: what it keeps cannot have been collected with it.
  expect((await app.request(`${ORIGIN}/auth/login`)).status).toBe(302);
  // Kept per sign-in, 4,000 of them held over 64 MiB (measured: +130 MiB); kept in the cookie, none.
  expect(grown).toBeLessThan(16 * 1024 * 1024);
});

test('a callback whose cookie is forged, altered or sealed by another server is refused', async () => {
  const app = await oidcApp();
  const other = await oidcApp();
  const sealed = loginCookie(await app.request(`${ORIGIN}/auth/login?returnTo=/agents/x`));
  const foreign = loginCookie(await other.request(`${ORIGIN}/auth/login?returnTo=/agents/x`));
  const altered = `${sealed.slice(0, -4)}${sealed.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
  for (const cookie of ['made-up', altered, foreign]) {
    const res = await app.request(`${ORIGIN}/auth/callback?code=x&state=y`, {
      headers: { cookie: `cairn_login=${cookie}` },
    });
    expect(res.status).toBe(400);
  }
});
