/**
 * Every HTTP route × every role, and every way credentials can be wrong
 * (docs/operations.md#authentication-and-roles): tokens from a tokens file and bearer JWTs of an
 * OpenID Connect issuer on loopback (its discovery document and JWKS over real HTTP), against
 * the real dev server. A route that passes authentication reaches Temporal (an unknown agent is
 * a 404); one that does not is refused before: 401 UNAUTHORIZED without valid credentials,
 * 403 FORBIDDEN without the role — and nothing is started.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { AgentClient } from '../../client/agents/agent-client';
import { ThreadClient } from '../../client/threads/thread-client';
import { createAuthenticator } from '../../client/http/auth/create-authenticator';
import type { Role } from '../../client/http/auth/principal';
import { ROUTE_ROLES } from '../../client/http/auth/route-roles';
import { sha256Hex } from '../../client/http/auth/token-table';
import { createApp } from '../../client/http/create-app';
import { startJwtIssuer, type BadJwt, type JwtIssuer } from '../harness/jwt-issuer';
import { closeClient, connectClient, uniqueId } from '../harness/test-env';
import type { Client } from '@temporalio/client';

const CLIENT_ID = 'cairn-test';
const API_TOKEN = 'the-single-admin-token-of-this-test';

/** Who may call each route; a served route missing here fails the test. */
const ALLOWED: Record<string, Role[]> = {
  'GET /api/openapi.json': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/me': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agents': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agents/:id': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agents/:id/events': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agents/:id/stream': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agents/:id/audit': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agents/:id/steps/:stepId/transcript': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agents/:id/files': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agents/:id/files/:path{.+}': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/graphs': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agent-definitions': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/agent-definitions/:name': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/tools': ['viewer', 'operator', 'approver', 'admin'],
  'GET /v1/models': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/threads': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/threads/:id': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/threads/:id/messages/:messageId': ['viewer', 'operator', 'approver', 'admin'],
  'GET /api/threads/:id/stream': ['viewer', 'operator', 'approver', 'admin'],
  'POST /api/agents': ['operator', 'admin'],
  'POST /api/threads': ['operator', 'admin'],
  'POST /api/threads/:id/messages': ['operator', 'admin'],
  'POST /api/agents/:id/cancel': ['operator', 'admin'],
  'POST /api/agents/:id/pause': ['operator', 'admin'],
  'POST /api/agents/:id/resume': ['operator', 'admin'],
  'POST /api/agents/:id/answers': ['operator', 'approver', 'admin'],
  'POST /v1/chat/completions': ['operator', 'admin'],
  'POST /codec/encode': ['operator', 'admin'],
  'POST /codec/decode': ['operator', 'admin'],
};

/** The status a route answers with once it lets the caller in (the agent `nobody` does not exist). */
const PASSED: Record<string, number> = {
  'GET /api/openapi.json': 200,
  'GET /api/me': 200,
  'GET /api/agents': 200,
  'GET /api/agents/:id': 404,
  'GET /api/agents/:id/events': 404,
  'GET /api/agents/:id/stream': 404,
  'GET /api/agents/:id/audit': 404,
  'GET /api/agents/:id/steps/:stepId/transcript': 404,
  'GET /api/agents/:id/files': 404,
  'GET /api/agents/:id/files/:path{.+}': 404,
  'GET /api/graphs': 200,
  'GET /api/agent-definitions': 200,
  // The definition `nobody` does not exist.
  'GET /api/agent-definitions/:name': 404,
  'GET /api/tools': 200,
  'GET /v1/models': 200,
  'GET /api/threads': 200,
  'GET /api/threads/:id': 404,
  'GET /api/threads/:id/messages/:messageId': 404,
  'GET /api/threads/:id/stream': 404,
  'POST /api/agents': 201,
  // An empty thread: started, and nothing routed (no worker polls this queue).
  'POST /api/threads': 201,
  'POST /api/threads/:id/messages': 404,
  'POST /api/agents/:id/cancel': 404,
  'POST /api/agents/:id/pause': 404,
  'POST /api/agents/:id/resume': 404,
  'POST /api/agents/:id/answers': 404,
  // Sent to the thread `nobody` (X-Cairn-Thread).
  'POST /v1/chat/completions': 404,
  'POST /codec/encode': 200,
  'POST /codec/decode': 200,
};

const ROLES: Role[] = ['viewer', 'operator', 'approver', 'admin'];

let client: Client;
let issuer: JwtIssuer;
let app: OpenAPIHono;
/** The tasks of the starts that reached the client library. */
const startedTasks: string[] = [];

beforeAll(async () => {
  client = await connectClient();
  issuer = await startJwtIssuer(CLIENT_ID);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-tokens-'));
  const tokensFile = join(dir, 'tokens.json');
  writeFileSync(
    tokensFile,
    JSON.stringify(
      ROLES.map((role) => ({ principal: `${role}-bot`, roles: [role], tokenSha256: sha256Hex(tokenOf(role)) })),
    ),
  );
  const auth = await createAuthenticator(
    {
      mode: 'oidc',
      tokensFile,
      apiToken: API_TOKEN,
      oidc: {
        issuer: issuer.issuer,
        clientId: CLIENT_ID,
        audience: CLIENT_ID,
        rolesClaim: 'cairn_roles',
        scopes: 'openid',
      },
    },
    '127.0.0.1',
  );
  const queue = uniqueId('auth-matrix');
  // No worker polls this queue: started agents just wait, which is all a status needs.
  const agents = new AgentClient(client, queue);
  const start = agents.start.bind(agents);
  agents.start = (input, options) => {
    startedTasks.push(input.task);
    return start(input, options);
  };
  // No worker answers with its tools here: the catalogue is an empty one, at once (not a 5 s wait per call).
  agents.tools = () => Promise.resolve([]);
  app = createApp({
    version: 'test',
    temporalHealthy: () => Promise.resolve(true),
    agents,
    threads: new ThreadClient(client, queue),
    auth,
  });
});

afterAll(async () => {
  await issuer.close();
  await closeClient(client);
});

function tokenOf(role: Role): string {
  return `token-of-the-${role}-bot-0123456789`;
}

/** The served `/api`, `/v1` and `/codec` routes, as `METHOD /path`. */
function servedRoutes(): string[] {
  const routes = app.routes
    .filter((r) => r.method !== 'ALL' && ['/api/', '/v1/', '/codec/'].some((prefix) => r.path.startsWith(prefix)))
    .map((r) => `${r.method} ${r.path}`);
  return [...new Set(routes)].sort();
}

/** Calls `route` (with `nobody` for :id) with `authorization` when given; a start's task is `task`. */
async function call(route: string, authorization?: string, task = uniqueId('matrix')): Promise<Response> {
  const [method = 'GET', pattern = '/'] = route.split(' ');
  const path = pattern
    .replace(':id', 'nobody')
    .replace(':stepId', 's1')
    .replace(':messageId', 'msg-1')
    .replace(':path{.+}', 'out/notes.md');
  const headers: Record<string, string> = authorization ? { authorization } : {};
  if (route === 'POST /v1/chat/completions') headers['x-cairn-thread'] = 'nobody';
  const bodies: Record<string, unknown> = {
    'POST /api/agents': { task },
    'POST /api/threads': {},
    'POST /api/threads/:id/messages': { text: 'x' },
    'POST /v1/chat/completions': { model: 'cairn', messages: [{ role: 'user', content: 'x' }] },
    'POST /api/agents/:id/answers': { interactionId: 'i1', answer: { text: 'x' } },
    'POST /codec/encode': { payloads: [] },
    'POST /codec/decode': { payloads: [] },
  };
  const body = bodies[route];
  if (body !== undefined) headers['content-type'] = 'application/json';
  return app.request(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
}

async function codeOf(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

test('every served route has its row here and in the route-role table', () => {
  expect(servedRoutes()).toEqual(Object.keys(ALLOWED).sort());
  expect(Object.keys(ROUTE_ROLES).sort()).toEqual(Object.keys(ALLOWED).sort());
});

test("each role, by token from the tokens file and by the issuer's JWT: allowed routes pass, others 403 FORBIDDEN", async () => {
  const seen: string[] = [];
  const expected: string[] = [];
  for (const role of ROLES) {
    const jwt = await issuer.sign(`user-${role}`, { cairn_roles: [role], name: `User ${role}` });
    for (const [credential, header] of [
      ['token', `Bearer ${tokenOf(role)}`],
      ['jwt', `Bearer ${jwt}`],
    ] as const) {
      for (const route of Object.keys(ALLOWED)) {
        const res = await call(route, header);
        const allowed = ALLOWED[route]?.includes(role) ?? false;
        const code = res.status === 403 ? ` ${await codeOf(res)}` : '';
        seen.push(`${role}/${credential} ${route} → ${res.status}${code}`);
        expected.push(`${role}/${credential} ${route} → ${allowed ? PASSED[route] : '403 FORBIDDEN'}`);
      }
    }
  }
  expect(seen).toEqual(expected);
});

test('CAIRN_API_TOKEN is an admin on every route', async () => {
  for (const route of Object.keys(ALLOWED)) {
    expect(`${route} → ${(await call(route, `Bearer ${API_TOKEN}`)).status}`).toBe(`${route} → ${PASSED[route]}`);
  }
});

test('no, malformed, unknown, forged and expired credentials: 401 UNAUTHORIZED on every route, nothing started', async () => {
  const bad: [string, string | undefined][] = [
    ['none', undefined],
    ['basic', 'Basic dXNlcjpwYXNz'],
    ['empty bearer', 'Bearer '],
    ['unknown token', 'Bearer not-a-token-anybody-holds-0000'],
    ['garbage jwt', 'Bearer aaa.bbb.ccc'],
  ];
  for (const kind of ['wrong-signature', 'wrong-issuer', 'wrong-audience', 'expired', 'alg-none'] as BadJwt[]) {
    bad.push([kind, `Bearer ${await issuer.sign('mallory', { cairn_roles: ['admin'] }, kind)}`]);
  }
  const seen: string[] = [];
  const refusedStarts: string[] = [];
  for (const [kind, header] of bad) {
    for (const route of Object.keys(ALLOWED)) {
      const task = uniqueId('refused');
      if (route === 'POST /api/agents') refusedStarts.push(task);
      const res = await call(route, header, task);
      seen.push(`${kind} ${route} → ${res.status} ${res.status === 401 ? await codeOf(res) : ''}`);
    }
  }
  expect(seen).toEqual(bad.flatMap(([kind]) => Object.keys(ALLOWED).map((r) => `${kind} ${r} → 401 UNAUTHORIZED`)));
  expect(refusedStarts.length).toBeGreaterThan(0);
  expect(startedTasks.filter((task) => refusedStarts.includes(task))).toEqual([]);
});

test('a JWT without any Cairn role may read nothing', async () => {
  const jwt = await issuer.sign('nobody-special', { name: 'No Roles' });
  const res = await call('GET /api/agents', `Bearer ${jwt}`);
  expect([res.status, await codeOf(res)]).toEqual([403, 'FORBIDDEN']);
});

test('GET /api/me names the principal, its roles and how it came', async () => {
  const jwt = await issuer.sign('ada', { cairn_roles: ['approver', 'not-a-role'], name: 'Ada Lovelace' });
  const res = await app.request('/api/me', { headers: { authorization: `Bearer ${jwt}`, 'x-cairn-client': 'cli' } });
  expect(await res.json()).toEqual({
    id: 'ada',
    name: 'Ada Lovelace',
    roles: ['approver'],
    method: 'cli',
    authenticatedBy: 'oidc-bearer',
    auth: 'oidc',
  });
});

test('how a request came follows what authenticated it: a header can say cli, never web', async () => {
  const jwt = await issuer.sign('ada', { cairn_roles: ['viewer'] });
  const me = async (authorization: string, client?: string) => {
    const headers = { authorization, ...(client ? { 'x-cairn-client': client } : {}) };
    const body = (await (await app.request('/api/me', { headers })).json()) as Record<string, unknown>;
    return [body.id, body.method, body.authenticatedBy];
  };
  // A script claiming to be the signed-in web page is still a bearer request.
  expect(await me(`Bearer ${tokenOf('operator')}`, 'web')).toEqual(['operator-bot', 'api', 'token']);
  expect(await me(`Bearer ${jwt}`, 'web')).toEqual(['ada', 'api', 'oidc-bearer']);
  expect(await me(`Bearer ${tokenOf('viewer')}`)).toEqual(['viewer-bot', 'api', 'token']);
  expect(await me(`Bearer ${tokenOf('viewer')}`, 'cli')).toEqual(['viewer-bot', 'cli', 'token']);
  // The shared CAIRN_API_TOKEN says so: it names no one person.
  expect(await me(`Bearer ${API_TOKEN}`, 'cli')).toEqual(['api-token', 'cli', 'shared-token']);
});
