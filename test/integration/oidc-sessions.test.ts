/**
 * A signed-in session's life, against a real OpenID Connect provider (oidc-provider, its own
 * process on loopback; the sign-in's browser hops over plain HTTP): signing out is a POST that
 * also ends the provider's session, the GET only asks to confirm; a return path with a control
 * character comes back to `/`; a session's roles are read again from the provider once they are
 * older than CAIRN_OIDC_ROLES_MAX_AGE_MS (with the refresh token), or the session ends.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Authenticator } from '../../client/http/auth/authenticate';
import { OidcProvider } from '../../client/http/auth/oidc';
import { SessionStore } from '../../client/http/auth/sessions';
import { TokenTable } from '../../client/http/auth/token-table';
import { createLog } from '../../client/redacted-log';
import { unusedAgents } from '../harness/config-errors';
import { signInOverHttp } from '../harness/oidc-http-sign-in';
import { startOidcProvider, type OidcProviderProcess, oidcSettings } from '../harness/oidc-provider';
import { appOver } from '../harness/http-app';

const CLIENT_ID = 'cairn-web';
const CLIENT_SECRET = 'the-client-secret-of-cairn-web-sessions';
const ORIGIN = 'http://127.0.0.1:3000';
const ROLES_MAX_AGE_MS = 60_000;

const accountsFile = join(mkdtempSync(join(tmpdir(), 'cairn-oidc-accounts-')), 'accounts.json');
/** Sets the roles the provider gives each login from now on. */
const accountsAre = (accounts: Record<string, { name: string; roles: string[] }>) =>
  writeFileSync(accountsFile, JSON.stringify(accounts));

let provider: OidcProviderProcess;
let noRefresh: OidcProviderProcess;
beforeAll(async () => {
  accountsAre({ alice: { name: 'Alice Approver', roles: ['approver'] } });
  const client = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: `${ORIGIN}/auth/callback` };
  [provider, noRefresh] = await Promise.all([
    startOidcProvider({ ...client, postLogoutRedirectUri: `${ORIGIN}/`, refreshTokens: true, accountsFile }),
    startOidcProvider({ ...client, accountsFile }),
  ]);
});
afterAll(async () => {
  await Promise.all([provider.close(), noRefresh.close()]);
});

/** The app on `issuer`, its sessions on a clock the test moves; the log's lines kept. */
async function appOn(issuer: string) {
  const clock = { now: Date.now() };
  const lines: string[] = [];
  const log = createLog([CLIENT_SECRET], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  const sessions = new SessionStore(() => clock.now, ROLES_MAX_AGE_MS);
  const settings = oidcSettings(issuer, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  const oidc = await OidcProvider.discover(settings, sessions, log);
  const auth: Authenticator = { mode: 'oidc', tokens: new TokenTable([]), sessions, oidc };
  const app = appOver(unusedAgents('session tests call no agent route'), { auth, log });
  return { app, clock, lines };
}

/** The value of the named cookie a response sets ('' when it clears it). */
function cookieSet(res: Response, name: string): string | undefined {
  const line = res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  return line === undefined ? undefined : line.slice(name.length + 1, line.indexOf(';'));
}

/** Signs `login` in from `/auth/login?returnTo=…`; the callback's answer and the session cookie. */
async function signIn(app: OpenAPIHono, login: string, returnTo = '/') {
  const start = await app.request(`${ORIGIN}/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
  const sealed = cookieSet(start, 'cairn_login');
  const back = new URL(await signInOverHttp(start.headers.get('location') ?? '', login));
  const callback = await app.request(`${ORIGIN}${back.pathname}${back.search}`, {
    headers: { cookie: `cairn_login=${sealed}` },
  });
  return { callback, session: cookieSet(callback, 'cairn_session') ?? '' };
}

async function me(app: OpenAPIHono, session: string): Promise<[number, string[] | undefined]> {
  const res = await app.request(`${ORIGIN}/api/me`, { headers: { cookie: `cairn_session=${session}` } });
  return [res.status, res.status === 200 ? ((await res.json()) as { roles: string[] }).roles : undefined];
}

test('a return path with a control character comes back to / (it was a 500 after the session began)', async () => {
  const { app, lines } = await appOn(provider.issuer);
  for (const returnTo of ['/agents/a\x7fb', '/agents/a\x01b', '/agents/a b']) {
    const { callback, session } = await signIn(app, 'alice', returnTo);
    expect([callback.status, callback.headers.get('location')]).toEqual([302, '/']);
    expect((await me(app, session))[0]).toBe(200);
  }
  const kept = await signIn(app, 'alice', '/agents/agent-x-1?tab=audit');
  expect(kept.callback.headers.get('location')).toBe('/agents/agent-x-1?tab=audit');
  expect(lines).toEqual([]);
});

test('every page sends a signed-out visitor to sign in, to come back to that page; the API answers 401', async () => {
  const { app } = await appOn(provider.issuer);
  for (const page of ['/', '/agents/agent-x-1', '/threads', '/threads/thread-x-1', '/threads/new']) {
    const res = await app.request(`${ORIGIN}${page}`);
    expect([page, res.status, res.headers.get('location')]).toEqual([
      page,
      302,
      `/auth/login?returnTo=${encodeURIComponent(page)}`,
    ]);
  }
  expect((await app.request(`${ORIGIN}/api/threads`)).status).toBe(401);
});

test("signing out: GET only asks, POST ends the session and sends the browser to the provider's logout", async () => {
  const { app } = await appOn(provider.issuer);
  const { session } = await signIn(app, 'alice');
  const cookie = { cookie: `cairn_session=${session}` };

  const page = await app.request(`${ORIGIN}/auth/logout`, { headers: cookie });
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/<form method="post" action="\/auth\/logout">/);
  expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:");
  expect(await me(app, session)).toEqual([200, ['approver']]); // a GET (a link, an image) ends nothing

  // Another site's page cannot sign anyone out.
  const foreign = await app.request(`${ORIGIN}/auth/logout`, {
    method: 'POST',
    headers: { ...cookie, origin: 'http://evil.example' },
  });
  expect(foreign.status).toBe(403);
  expect(await me(app, session)).toEqual([200, ['approver']]);

  const out = await app.request(`${ORIGIN}/auth/logout`, { method: 'POST', headers: { ...cookie, origin: ORIGIN } });
  expect(out.status).toBe(303);
  const to = new URL(out.headers.get('location') ?? '');
  expect(to.origin).toBe(provider.issuer);
  expect(to.searchParams.get('post_logout_redirect_uri')).toBe(`${ORIGIN}/`);
  expect(to.searchParams.get('client_id')).toBe(CLIENT_ID);
  expect(to.searchParams.get('id_token_hint')?.split('.')).toHaveLength(3);
  expect(cookieSet(out, 'cairn_session')).toBe('');
  expect((await me(app, session))[0]).toBe(401);
  // The provider knows the hint: its logout page answers (rather than refusing the request).
  const providerLogout = await fetch(to, { redirect: 'manual' });
  expect(providerLogout.status).toBe(200);
});

test('roles are read again once older than their maximum age: a role the provider took away is gone', async () => {
  accountsAre({ alice: { name: 'Alice Approver', roles: ['approver'] } });
  const { app, clock } = await appOn(provider.issuer);
  const { session } = await signIn(app, 'alice');
  expect(await me(app, session)).toEqual([200, ['approver']]);

  accountsAre({ alice: { name: 'Alice Approver', roles: ['viewer'] } });
  clock.now += ROLES_MAX_AGE_MS - 1_000;
  expect(await me(app, session)).toEqual([200, ['approver']]); // still within the roles' age
  clock.now += 2_000;
  expect(await me(app, session)).toEqual([200, ['viewer']]); // renewed with the refresh token
  // An approver's route is now refused, and stays so within the next age.
  const answer = await app.request(`${ORIGIN}/api/agents/agent-x-1/answers`, {
    method: 'POST',
    headers: { cookie: `cairn_session=${session}`, origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ interactionId: 'i1', answer: { decision: 'confirm' } }),
  });
  expect(answer.status).toBe(403);
});

test('without a refresh token, a session ends when its roles are due (the page signs in again)', async () => {
  accountsAre({ alice: { name: 'Alice Approver', roles: ['approver'] } });
  const { app, clock, lines } = await appOn(noRefresh.issuer);
  const { session } = await signIn(app, 'alice');
  expect(await me(app, session)).toEqual([200, ['approver']]);
  clock.now += ROLES_MAX_AGE_MS + 1_000;
  expect((await me(app, session))[0]).toBe(401);
  expect(lines).toEqual([]);
});
