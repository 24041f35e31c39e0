/** The HTTP API's health route and generated OpenAPI document, against the run's dev server. */
import { Client, type Connection } from '@temporalio/client';
import { connectTemporal } from '../../config/grpc-interceptors';
import { AgentClient } from '../../client/agent-client';
import { createApp } from '../../client/http/create-app';
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
