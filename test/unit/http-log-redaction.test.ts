/**
 * Secrets never reach the HTTP server's log: requests carrying a tokens-file token (which the
 * server holds only as a digest), CAIRN_API_TOKEN and a session cookie hit a route that fails
 * with an error repeating all of them and the OpenID Connect client secret. Whatever the process
 * writes to stdout and stderr is captured: the failure is logged (the haystack is not empty),
 * and not one secret value is in it.
 */
import { loadConfig } from '../../config/config';
import type { AgentsPort } from '../../client/agents/agents-port';
import { SessionStore } from '../../client/http/auth/sessions';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import { serverLog } from '../../client/http/serve-api';
import { appOver } from '../harness/http-app';
import { captureOutput } from '../harness/captured-output';

const PERSON_TOKEN = 'tok-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const API_TOKEN = 'admin-api-token-0123456789abcdef';
const CLIENT_SECRET = 'oidc-client-secret-Zx81-kq';
const SESSION_ID = 'sessId_4f9a0c2e81b7d3aa';

/** A route that fails, its error (and its cause) repeating every credential the request carried. */
const failing = (): Promise<never> =>
  Promise.reject(
    new Error(
      `upstream refused GET /agents (headers: authorization=Bearer ${PERSON_TOKEN}, cookie: cairn_session=${SESSION_ID}) ` +
        `client_secret ${CLIENT_SECRET}`,
      { cause: new Error(`retried with token ${PERSON_TOKEN}, then ${API_TOKEN}, session ${SESSION_ID}`) },
    ),
  );

const agents = { list: failing, state: failing } as unknown as AgentsPort;

const output = captureOutput({ consoleToo: true });

test('a failing route logs its error with no token, cookie or client secret in it', async () => {
  const config = loadConfig({
    CAIRN_API_TOKEN: API_TOKEN,
    CAIRN_AUTH: 'oidc',
    CAIRN_OIDC_ISSUER: 'http://127.0.0.1:1/realm',
    CAIRN_OIDC_CLIENT_ID: 'cairn',
    CAIRN_OIDC_CLIENT_SECRET: CLIENT_SECRET,
  });
  const tokens = new TokenTable(
    [{ principal: 'ana', roles: ['viewer'], tokenSha256: sha256Hex(PERSON_TOKEN) }],
    API_TOKEN,
  );
  const app = appOver(agents, {
    auth: { mode: 'tokens', tokens, sessions: new SessionStore() },
    log: serverLog(config),
  });
  const cookie = `theme=dark; cairn_session=${SESSION_ID}`;
  for (const [path, token] of [
    ['/api/agents', PERSON_TOKEN],
    ['/api/agents/a-1', API_TOKEN],
  ] as const) {
    const res = await app.request(path, { headers: { authorization: `Bearer ${token}`, cookie } });
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([500, 'INTERNAL']);
  }

  const log = output.written();
  for (const secret of [PERSON_TOKEN, API_TOKEN, CLIENT_SECRET, SESSION_ID]) expect(log).not.toContain(secret);
  expect(log).toContain('HTTP API error (GET /api/agents)');
  expect(log).toContain('HTTP API error (GET /api/agents/a-1)');
  expect(log).toContain('caused by: Error: retried with token [redacted]');
});
