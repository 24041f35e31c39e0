/**
 * Behind a TLS proxy (CAIRN_PUBLIC_URL=https://cairn.example.com; the proxy forwards plain http
 * with the public Host): the OpenID Connect sign-in asks for and uses the https redirect URI the
 * provider knows, every cookie it sets is Secure and `__Host-` prefixed (so no sibling subdomain
 * can plant one), the session is read only from that cookie, and a page's request from the public origin is
 * served — against a real provider (oidc-provider, its own process on loopback), the requests
 * delivered to the app exactly as the proxy would forward them.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { createAuthenticator } from '../../client/http/auth/create-authenticator';
import { allowedHostNames } from '../../config/host-names';
import type { AuthConfig } from '../../config/auth-config';
import { unusedAgents } from '../harness/config-errors';
import { signInOverHttp } from '../harness/oidc-http-sign-in';
import { startOidcProvider, type OidcProviderProcess, oidcSettings } from '../harness/oidc-provider';
import { appOver } from '../harness/http-app';

const CLIENT_ID = 'cairn-web';
const CLIENT_SECRET = 'the-client-secret-of-cairn-behind-tls';
const PUBLIC = 'https://cairn.example.com';
/** What the proxy forwards to: plain http, the public Host kept. */
const FORWARDED = 'http://cairn.example.com';

let provider: OidcProviderProcess;
beforeAll(async () => {
  provider = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${PUBLIC}/auth/callback`,
  });
});
afterAll(async () => {
  await provider.close();
});

async function appBehindProxy(): Promise<OpenAPIHono> {
  const auth: AuthConfig = {
    mode: 'oidc',
    oidc: oidcSettings(provider.issuer, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }),
  };
  return appOver(
    {
      ...unusedAgents('only the answers route is called'),
      answer: (_id, input) => Promise.resolve({ interactionId: input.interactionId, answer: { text: 'yes' } }),
    },
    {
      allowedHosts: allowedHostNames('0.0.0.0', ['cairn.example.com']),
      publicOrigin: PUBLIC,
      auth: await createAuthenticator(auth, '0.0.0.0'),
    },
  );
}

/** The named cookie's Set-Cookie line of a response. */
function setCookie(res: Response, name: string): string {
  const line = res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  if (line === undefined) throw new Error(`no ${name} cookie was set (status ${res.status})`);
  return line;
}

const valueOf = (line: string) => line.slice(line.indexOf('=') + 1, line.indexOf(';'));

test('behind a TLS proxy: the https redirect URI, Secure cookies, and the page served from the public origin', async () => {
  const app = await appBehindProxy();
  const login = await app.request(`${FORWARDED}/auth/login?returnTo=/agents/a-1`);
  expect(login.status).toBe(302);
  const authorization = new URL(login.headers.get('location') ?? '');
  expect(authorization.searchParams.get('redirect_uri')).toBe(`${PUBLIC}/auth/callback`);
  const loginCookie = setCookie(login, '__Host-cairn_login');
  expect(loginCookie).toMatch(/; Secure/);
  expect(loginCookie).toMatch(/; Path=\//);
  expect(loginCookie).not.toMatch(/; Domain=/i);

  // The provider sends the browser back to the public URL; the proxy forwards it as plain http.
  const back = new URL(await signInOverHttp(authorization.href, 'alice'));
  expect(back.origin + back.pathname).toBe(`${PUBLIC}/auth/callback`);
  const callback = await app.request(`${FORWARDED}${back.pathname}${back.search}`, {
    headers: { cookie: `__Host-cairn_login=${valueOf(loginCookie)}` },
  });
  expect({ status: callback.status, to: callback.headers.get('location') }).toEqual({ status: 302, to: '/agents/a-1' });
  const session = setCookie(callback, '__Host-cairn_session');
  expect(session).toMatch(/; Secure/);
  expect(session).toMatch(/; HttpOnly/);
  expect(session).toMatch(/; Path=\//);
  // Unprefixed, the same session id is not taken: only the __Host- cookie names a session here.
  const unprefixed = await app.request(`${FORWARDED}/api/me`, {
    headers: { cookie: `cairn_session=${valueOf(session)}` },
  });
  expect(unprefixed.status).toBe(401);

  // The page's own request carries the public origin, and is served.
  const answered = await app.request(`${FORWARDED}/api/agents/a-1/answers`, {
    method: 'POST',
    headers: {
      cookie: `__Host-cairn_session=${valueOf(session)}`,
      origin: PUBLIC,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ interactionId: 'i-1', answer: { text: 'yes' } }),
  });
  expect(answered.status).toBe(200);
  // Another site's page is refused, as without a proxy.
  const foreign = await app.request(`${FORWARDED}/api/agents/a-1/answers`, {
    method: 'POST',
    headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
    body: JSON.stringify({ interactionId: 'i-1', answer: { text: 'yes' } }),
  });
  expect(foreign.status).toBe(403);
});
