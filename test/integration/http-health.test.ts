/**
 * The HTTP API's health route and generated OpenAPI document, against the run's dev server; and
 * `/healthz` as `npm run web` serves it (its own probe on its own Temporal connection) going to
 * 503 when that Temporal server stops, on a dev server of the test's own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type Connection } from '@temporalio/client';
import { connectTemporal } from '../../temporal/connection';
import { AgentClient } from '../../client/agents/agent-client';
import { createApp } from '../../client/http/create-app';
import { serveApi } from '../../client/http/serve-api';
import { loadConfig } from '../../config/config';
import { startDevServer } from '../../scripts/dev-server';
import { freePort } from '../../testkit/free-port';
import { lowFreePort } from '../../testkit/low-port';
import { runInfo } from '../harness/run-info';

let connection: Connection;
let agents: AgentClient;
beforeAll(async () => {
  connection = await connectTemporal({ address: runInfo().temporalAddress });
  agents = new AgentClient(new Client({ connection }), 'http-health-unused');
});
afterAll(async () => {
  await connection.close();
});

test('healthz is 200 while Temporal answers', async () => {
  const app = createApp({
    version: '1.2.3',
    agents,
    temporalHealthy: async () => (await connection.healthService.check({})) !== undefined,
  });
  const res = await app.request('/healthz');
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok', temporal: 'up', version: '1.2.3' });
});

test('healthz is 503 when Temporal does not answer', async () => {
  const app = createApp({ version: '1.2.3', agents, temporalHealthy: () => Promise.reject(new Error('unreachable')) });
  const res = await app.request('/healthz');
  expect(res.status).toBe(503);
  expect(await res.json()).toMatchObject({ status: 'degraded', temporal: 'down' });
});

test('the OpenAPI document is generated from the route schemas', async () => {
  const app = createApp({ version: '1.2.3', agents, temporalHealthy: () => Promise.resolve(true) });
  const doc = (await (await app.request('/api/openapi.json')).json()) as {
    openapi: string;
    paths: Record<string, unknown>;
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths)).toContain('/healthz');
  expect(Object.keys(doc.components.schemas.Health?.properties ?? {}).sort()).toEqual([
    'status',
    'temporal',
    'version',
  ]);
});

test('healthz of the served API answers 200, then 503 once its Temporal server is down (the real probe)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-health-'));
  const server = await startDevServer({
    cli: runInfo().temporalCli,
    dbFile: join(dir, 'temporal.db'),
    port: await lowFreePort(),
    logFile: join(dir, 'temporal.log'),
  });
  let serverUp = true;
  const port = await freePort();
  const api = await serveApi(loadConfig({ TEMPORAL_ADDRESS: server.address, CAIRN_HTTP_PORT: String(port) }));
  try {
    const health = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      return { status: res.status, body: await res.json() };
    };
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', temporal: 'up' } });
    await server.stop();
    serverUp = false;
    expect(await health()).toMatchObject({ status: 503, body: { status: 'degraded', temporal: 'down' } });
  } finally {
    await api.close();
    if (serverUp) await server.stop();
  }
}, 60_000);
