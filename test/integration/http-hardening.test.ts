/**
 * The HTTP server against a browser used as an attacker's tool, served the way `npm run web`
 * serves it (environment → loadConfig → serveApi → a real listener) and driven over raw
 * sockets, since fetch cannot set `Host`: the Host allowlist that defeats DNS rebinding (every
 * route refused before routing, /healthz excepted), and 415 for a body that is not JSON.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { ConfigError, loadConfig } from '../../config/config';
import { allowedHostNames } from '../../config/host-names';
import { serveApi, type ApiServer } from '../../client/http/serve-api';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { freePort } from '../../testkit/free-port';
import { testConfig, withWorker } from '../harness/test-env';

const bed = agentTestbed();

interface Answered {
  status: number;
  contentType: string;
  body: string;
}

interface Sent {
  method?: string;
  /** The Host header; none at all when undefined. */
  host?: string;
  contentType?: string;
  body?: string;
}

/** One HTTP/1.1 request to the loopback listener with exactly the headers given. */
function send(port: number, path: string, { method = 'GET', host, contentType, body }: Sent): Promise<Answered> {
  const headers: Record<string, string> = {};
  if (host !== undefined) headers.host = host;
  if (contentType !== undefined) headers['content-type'] = contentType;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A request written byte for byte: Node's client cannot leave out `Host` or send it empty. */
function sendRaw(port: number, head: string): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [top = '', ...rest] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.\d (\d{3})/.exec(top)?.[1] ?? 0);
      const contentType = /^content-type: *(.*)$/im.exec(top)?.[1]?.trim() ?? '';
      resolve({ status, contentType, body: rest.join('\r\n\r\n') });
    });
  });
}

/** The `error.code` of a JSON error body; undefined for any other body. */
function errorCode(res: Answered): string | undefined {
  try {
    return (JSON.parse(res.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

/** Serves the API as `npm run web` does, on a free port, with `env` added to the test's config. */
async function withServer<T>(env: Record<string, string>, body: (port: number) => Promise<T>): Promise<T> {
  const port = await freePort();
  const api: ApiServer = await serveApi(testConfig(bed.llm, { CAIRN_HTTP_PORT: String(port), ...env }));
  try {
    return await body(port);
  } finally {
    await api.close();
  }
}

const ROUTES: [method: string, path: string][] = [
  ['GET', '/'],
  ['GET', '/agents/agent-x-00000000'],
  ['GET', '/web/app.js'],
  ['GET', '/vendor/marked.js'],
  ['GET', '/api/openapi.json'],
  ['GET', '/api/agents'],
  ['GET', '/api/agents/agent-x-00000000'],
  ['GET', '/api/agents/agent-x-00000000/events'],
  ['POST', '/api/agents'],
  ['POST', '/api/agents/agent-x-00000000/answers'],
  ['POST', '/api/agents/agent-x-00000000/cancel'],
  ['GET', '/no-such-route'],
];

test('a request naming a host not on the list is refused on every route before routing; /healthz stays open', async () => {
  await withServer({ CAIRN_HTTP_ALLOWED_HOSTS: 'cairn.example' }, async (port) => {
    const strangers = [
      'evil.example',
      `evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `cairn.example.evil.example:${port}`,
      `0.0.0.0:${port}`,
    ];
    for (const host of strangers) {
      for (const [method, path] of ROUTES) {
        const body = method === 'POST' ? '{"task":"rebound","interactionId":"i1","answer":{}}' : undefined;
        const res = await send(port, path, { method, host, contentType: 'application/json', body });
        expect({ host, method, path, status: res.status, code: errorCode(res) }).toEqual({
          host,
          method,
          path,
          status: 421,
          code: 'HOST_NOT_ALLOWED',
        });
        expect(res.contentType).toMatch(/^application\/json/);
      }
    }
    // A Host that is no host at all never gets past Node's adapter, which answers a bare 400.
    const malformed = await send(port, '/api/agents', { host: `localhost:${port}:1` });
    expect({ status: malformed.status, body: malformed.body }).toEqual({ status: 400, body: '' });
    // No Host at all (HTTP/1.0 allows that; Node refuses it in HTTP/1.1 itself), or an empty one.
    for (const head of ['GET /api/agents HTTP/1.0', 'GET /api/agents HTTP/1.1\r\nHost: ']) {
      const res = await sendRaw(port, head);
      expect({ head, status: res.status, code: errorCode(res) }).toEqual({
        head,
        status: 421,
        code: 'HOST_NOT_ALLOWED',
      });
    }

    // Probes of load balancers and orchestrators name the machine's address: health answers them.
    const health = await send(port, '/healthz', { host: `10.1.2.3:${port}` });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'ok', temporal: 'up' });
  });
});

test('loopback names, the listen address and the configured names are served, with any port', async () => {
  await withServer({ CAIRN_HTTP_ALLOWED_HOSTS: 'Cairn.Example, 10.0.0.5' }, async (port) => {
    const friends = [
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      'localhost',
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      '[::1]',
      `cairn.example:${port}`,
      'cairn.example:443',
      '10.0.0.5',
    ];
    for (const host of friends) {
      const res = await send(port, '/api/openapi.json', { host });
      expect({ host, status: res.status }).toEqual({ host, status: 200 });
    }
    const page = await send(port, '/', { host: `localhost:${port}` });
    expect(page.status).toBe(200);
    expect(page.body).toContain('/web/app.js');
  });
});

test('a rebound page cannot answer an open interaction; a body that is not JSON is 415; the allowed origin can', async () => {
  bed.llm.respondWith(
    byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('done')], summary: [reply.text('ok')] }),
  );
  await withWorker(bed.config, () =>
    withServer({ CAIRN_TASK_QUEUE: bed.config.taskQueue }, async (port) => {
      const handle = await startAgent(bed.client, bed.config, { task: 'Guard me', mode: { confirmPlan: true } });
      const check = await waitForInteraction(handle, 'plan.check');
      const path = `/api/agents/${handle.workflowId}/answers`;
      const confirm = JSON.stringify({ interactionId: check.id, answer: { decision: 'confirm' } });

      const rebound = await send(port, path, {
        method: 'POST',
        host: `attacker.example:${port}`,
        contentType: 'application/json',
        body: confirm,
      });
      expect({ status: rebound.status, code: errorCode(rebound) }).toEqual({ status: 421, code: 'HOST_NOT_ALLOWED' });
      const here = `127.0.0.1:${port}`;
      // A cross-site form can post these media types without a preflight.
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        const res = await send(port, path, { method: 'POST', host: here, contentType, body: confirm });
        expect({ contentType, status: res.status, code: errorCode(res) }).toEqual({
          contentType,
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
      }
      const untyped = await send(port, path, { method: 'POST', host: here, body: confirm });
      expect({ status: untyped.status, code: errorCode(untyped) }).toEqual({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
      const unchanged = await stateOf(handle);
      expect(unchanged.phase).toBe('awaiting_input');
      expect(unchanged.interactions.find((i) => i.id === check.id)?.status).toBe('open');

      const allowed = await send(port, path, {
        method: 'POST',
        host: here,
        contentType: 'application/json; charset=utf-8',
        body: confirm,
      });
      expect(allowed.status).toBe(200);
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    }),
  );
});

test('starting an agent with a body that is not JSON is 415 on the start route too', async () => {
  await withServer({}, async (port) => {
    const host = `localhost:${port}`;
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'text/html']) {
      const res = await send(port, '/api/agents', { method: 'POST', host, contentType, body: '{"task":"x"}' });
      expect({ contentType, status: res.status, code: errorCode(res) }).toEqual({
        contentType,
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    }
    // JSON with a bad body is still validated as before (400, not 415).
    const invalid = await send(port, '/api/agents', {
      method: 'POST',
      host,
      contentType: 'application/json',
      body: '{}',
    });
    expect({ status: invalid.status, code: errorCode(invalid) }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    const doc = JSON.parse((await send(port, '/api/openapi.json', { host })).body) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths['/api/agents']?.post?.responses ?? {})).toContain('415');
    expect(Object.keys(doc.paths['/api/agents/{id}/answers']?.post?.responses ?? {})).toContain('415');
  });
});

test('CAIRN_HTTP_ALLOWED_HOSTS is validated; the default list is loopback plus a specific listen host', () => {
  expect(
    loadConfig({ CAIRN_HTTP_ALLOWED_HOSTS: ' Cairn.Example.COM ,10.0.0.5,, ::1,[fe80::1]' }).http.allowedHosts,
  ).toEqual(['cairn.example.com', '10.0.0.5', '[::1]', '[fe80::1]']);
  expect(loadConfig({}).http.allowedHosts).toBeUndefined();
  for (const bad of ['cairn.example:3000', 'http://cairn.example', 'cairn example', '*', 'a/b']) {
    const error = (() => {
      try {
        loadConfig({ CAIRN_HTTP_ALLOWED_HOSTS: bad });
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).lines).toEqual([
      expect.stringMatching(/^CAIRN_HTTP_ALLOWED_HOSTS: expected host names/),
    ]);
  }

  const loopback = ['localhost', '127.0.0.1', '[::1]'];
  expect(allowedHostNames('127.0.0.1')).toEqual(loopback);
  expect(allowedHostNames('0.0.0.0')).toEqual(loopback);
  expect(allowedHostNames('::')).toEqual(loopback);
  expect(allowedHostNames('10.1.2.3')).toEqual([...loopback, '10.1.2.3']);
  expect(allowedHostNames('Cairn.Local', ['cairn.example'])).toEqual([...loopback, 'cairn.local', 'cairn.example']);
  expect(allowedHostNames('fe80::1')).toEqual([...loopback, '[fe80::1]']);
});
