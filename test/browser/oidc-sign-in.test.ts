/**
 * Signing in with OpenID Connect, in real Chromium (docs/operations.md#authentication-and-roles):
 * a real provider (`oidc-provider`, its own process on loopback), Cairn's page signing in by
 * the authorization-code flow with PKCE into an HttpOnly session cookie, the real dev server, a
 * worker and the scripted LLM. Victor (viewer) sees the approval but no button — a note says
 * why — and the API refuses his answer (403 FORBIDDEN), changing nothing; Alice (approver)
 * approves, and the audit record names her — after 500 sign-ins started and left by someone else —
 * and a link carrying an admin token leaves her herself. Neither the client secret, nor a session or sign-in
 * cookie, reaches any workflow history of the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { WorkflowHandle } from '@temporalio/client';
import type { Page } from 'playwright-core';
import { launchChromium } from '../harness/chromium';
import { createAuthenticator } from '../../client/http/auth/create-authenticator';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { stepWorkflowId } from '../../workflows/base/ids';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { historyText } from '../harness/history-text';
import { startOidcProvider, oidcSettings } from '../harness/oidc-provider';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { testApp } from '../harness/http-app';

const WAIT = { timeout: 30_000 };
const CLIENT_ID = 'cairn-web';
const CLIENT_SECRET = 'the-client-secret-of-cairn-web-0f3a9c';
/** An admin token beside OIDC (CAIRN_API_TOKEN), which a link must not slip into a signed-in page. */
const ADMIN_TOKEN = 'admin-token-beside-oidc-0123456789';

const bed = agentTestbed();

jest.setTimeout(180_000);

/** A cookie Cairn's server set, as its Set-Cookie header gave it. */
interface IssuedCookie {
  name: string;
  value: string;
}

/**
 * Records every cookie the server at `origin` sets on `page`'s responses — the sign-in cookie
 * too, which the callback clears again, so the browser's jar no longer holds it afterwards.
 * Await the returned promises before reading `into`.
 */
function recordIssuedCookies(page: Page, origin: string, into: IssuedCookie[]): Promise<void>[] {
  const reads: Promise<void>[] = [];
  page.on('response', (res) => {
    if (!res.url().startsWith(origin)) return;
    reads.push(
      res.headerValues('set-cookie').then((headers) => {
        for (const line of headers.flatMap((h) => h.split('\n'))) {
          const pair = line.split(';')[0] ?? '';
          const eq = pair.indexOf('=');
          if (eq > 0) into.push({ name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() });
        }
      }),
    );
  });
  return reads;
}

/** Opens `url`, is sent to the provider, signs in as `login` and consents; ends back at `url`. */
async function signIn(page: Page, url: string, login: string): Promise<void> {
  await page.goto(url);
  await page.locator('input[name="login"]').waitFor(WAIT);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(url, WAIT);
}

test('sign in with OIDC: a viewer cannot approve, an approver can, and the audit names her', async () => {
  // The server listens first: the provider must know the redirect URI, which names the port.
  const serving: { app?: OpenAPIHono } = {};
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve(
      {
        fetch: (req) => serving.app?.fetch(req) ?? new Response('starting', { status: 503 }),
        port: 0,
        hostname: '127.0.0.1',
      },
      (info: AddressInfo) => resolve({ server: s, port: info.port }),
    );
  });
  const url = `http://127.0.0.1:${port}`;
  let open = true;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      if (!open) return resolve();
      open = false;
      server.close(() => resolve());
      // Event streams stay open until their page goes; close them with the server.
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
  const provider = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${url}/auth/callback`,
    postLogoutRedirectUri: `${url}/`,
  });
  const workspace = mkdtempSync(join(tmpdir(), 'oidc-web-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const auth = await createAuthenticator(
    {
      mode: 'oidc',
      oidc: oidcSettings(provider.issuer, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }),
      apiToken: ADMIN_TOKEN,
    },
    '127.0.0.1',
  );
  serving.app = testApp(bed.client, config.taskQueue, { eventTiming: { pollMs: 100, heartbeatMs: 1_000 }, auth });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1', [], { title: 'Write notes' })]))],
      'step:s1': [reply.toolCall('write_file', { path: 'notes.md', content: 'hello' }, 'w1'), finish('wrote notes')],
      summary: [reply.text('done')],
    }),
  );
  const victor = await launchChromium();
  const alice = await launchChromium();
  let handle: WorkflowHandle | undefined;
  const cookies: string[] = [];
  const issued: IssuedCookie[] = [];
  const reads = [victor, alice].flatMap((person) => recordIssuedCookies(person.page, url, issued));
  try {
    await withWorker(config, async () => {
      const agent = await startAgent(bed.client, config, { task: 'Write notes' });
      handle = agent;
      const approval = await waitForInteraction(agent, 'tool.approval', 's1');
      const agentUrl = `${url}/agents/${encodeURIComponent(agent.workflowId)}`;

      // Sign-ins anyone may start, by the hundred, keep nothing here and change nothing for others.
      for (let i = 0; i < 500; i += 1) {
        const flood = await fetch(`${url}/auth/login?returnTo=/${'x'.repeat(8_000)}`, { redirect: 'manual' });
        expect(flood.status).toBe(302);
      }

      // Victor, a viewer: the approval is shown without its buttons, and a note says why.
      await signIn(victor.page, agentUrl, 'victor');
      await victor.page.locator('.identity .who', { hasText: 'Victor Viewer (viewer)' }).waitFor(WAIT);
      const locked = victor.page.locator('.interaction[data-kind="tool.approval"]');
      await locked.waitFor(WAIT);
      expect(await locked.locator('.why-locked').textContent()).toContain('answering needs the approver role');
      expect(await locked.getByRole('button').count()).toBe(0);
      // The API refuses him too, with his own session cookie, and nothing moves.
      const before = await stateOf(agent);
      const refused = await victor.page.evaluate(
        async ({ path, body }) => {
          const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
        },
        {
          path: `/api/agents/${encodeURIComponent(agent.workflowId)}/answers`,
          body: JSON.stringify({
            interactionId: approval.id,
            answer: { decision: 'approve', digest: approval.digest },
          }),
        },
      );
      expect(refused).toEqual([403, 'FORBIDDEN']);
      expect(await stateOf(agent)).toEqual(before);

      // Alice, an approver, approves from the page.
      await signIn(alice.page, agentUrl, 'alice');
      const control = alice.page.locator('.interaction[data-kind="tool.approval"]');
      await control.getByRole('button', { name: 'Approve' }).click();
      const done = await waitUntil('the agent completes', async () => {
        const state: AgentState = await stateOf(agent);
        return state.phase === 'completed' ? state : undefined;
      });
      expect(done.interactions.find((i) => i.id === approval.id)).toMatchObject({
        status: 'answered',
        by: 'alice',
        actor: {
          id: 'alice',
          name: 'Alice Approver',
          roles: ['approver'],
          method: 'web',
          authenticatedBy: 'oidc-session',
        },
      });
      // The page's audit panel names her by her principal id — the provider's display name, which
      // she may edit there, only beside it — with her roles, how she answered and what signed her in.
      await alice.page
        .locator('#audit li', {
          hasText: 'tool.approval answered: approve — alice “Alice Approver” (approver; web, oidc-session)',
        })
        .waitFor(WAIT);
      // A link carrying someone else's token changes nothing: Alice stays Alice, after a reload too,
      // and so does a token such a link stored before (it is forgotten).
      await alice.page.goto(`${agentUrl}?token=${ADMIN_TOKEN}`);
      await alice.page.locator('.identity .who', { hasText: 'Alice Approver (approver)' }).waitFor(WAIT);
      await alice.page.locator('.link-token').waitFor(WAIT);
      expect(new URL(alice.page.url()).search).toBe('');
      await alice.page.evaluate(`localStorage.setItem('cairn.token', ${JSON.stringify(ADMIN_TOKEN)})`);
      await alice.page.reload();
      await alice.page.locator('.identity .who', { hasText: 'Alice Approver (approver)' }).waitFor(WAIT);
      expect(await alice.page.evaluate('JSON.stringify(Object.keys(localStorage))')).toBe('[]');
      const me: unknown = await alice.page.evaluate(
        `import('/web/api.js').then(({ api }) => api('/api/me')).then((me) => me.id)`,
      );
      expect(me).toBe('alice');
      for (const person of [victor, alice]) {
        const jar = await person.context.cookies(url);
        const session = jar.find((c) => c.name === 'cairn_session');
        expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
        cookies.push(...jar.map((c) => c.value));
      }
      // Alice signs out: the page's link only asks; its button ends her session here and, through
      // the provider's logout, there too — so the page then wants her to sign in at the provider
      // again, where before the provider's session let her straight back in.
      await alice.page.getByRole('link', { name: 'Sign out' }).click();
      await alice.page.getByRole('heading', { name: 'Sign out of Cairn?' }).waitFor(WAIT);
      // Still signed in (the page's cookies, sent from outside its strict CSP).
      expect((await alice.context.request.get(`${url}/api/me`)).status()).toBe(200);
      await alice.page.getByRole('button', { name: 'Sign out' }).click();
      await alice.page.getByRole('button', { name: 'Yes, sign me out' }).click();
      await alice.page.locator('input[name="login"]').waitFor(WAIT);
      expect(new URL(alice.page.url()).origin).toBe(provider.issuer);
      expect((await alice.context.cookies(url)).some((c) => c.name === 'cairn_session')).toBe(false);
      // Pages and their event streams go while the worker still answers the state query.
      await victor.close();
      await alice.close();
      await closeServer();
    });
    // The scan: the agent's and its step's histories hold none of the secrets.
    const agentId = handle?.workflowId ?? '';
    const texts: string[] = [];
    for (const id of [agentId, stepWorkflowId(agentId, 's1')]) {
      texts.push(...historyText(await bed.client.workflow.getHandle(id).fetchHistory()));
    }
    const history = texts.join('\n');
    expect(history).toContain('alice');
    await Promise.all(reads);
    // Each person was given sign-in cookies and a session cookie; all are scanned for.
    const given = (name: string) => issued.filter((c) => c.name === name && c.value.length >= 16).map((c) => c.value);
    // (Alice's third: after signing out, the page sent her to sign in again.)
    expect(given('cairn_login')).toHaveLength(3);
    expect(given('cairn_session')).toHaveLength(2);
    const secrets = [CLIENT_SECRET, ...cookies, ...issued.map((c) => c.value)];
    const leaked = secrets.filter((secret) => secret.length >= 16 && history.includes(secret));
    expect(leaked).toEqual([]);
    expect(cookies.length).toBeGreaterThanOrEqual(2);
  } finally {
    await victor.close();
    await alice.close();
    await provider.close();
    await closeServer();
    rmSync(workspace, { recursive: true, force: true });
  }
});
