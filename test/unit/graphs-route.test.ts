/**
 * `GET /api/graphs` (client/graphs/routes/graphs.ts): the registered graphs, checked with defaults
 * filled in; none when the app's client has no registry; read by any role, refused without a
 * credential when authentication is on.
 */
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from '../../client/http/create-app';
// After the app: the API's routes extend zod with `.openapi` before the CLI's schemas are built.
import { CairnApi } from '../../client/cli/cairn-api';
import { loadGraphRegistry } from '../../client/graphs/load-graphs';
import type { GraphRegistry } from '../../client/graphs/graph-registry';
import { unusedAgents } from '../harness/config-errors';

const ROOT = join(__dirname, '..', '..');
const TOKEN = 'a-test-token-that-is-long-enough';

function appWith(graphs: GraphRegistry | undefined, apiToken?: string) {
  const agents = { ...unusedAgents('listing graphs calls no agent route'), ...(graphs ? { graphs } : {}) };
  return createApp({
    version: 'test',
    temporalHealthy: () => Promise.resolve(true),
    agents,
    ...(apiToken ? { apiToken } : {}),
  });
}

test('lists every registered graph: name, description and the checked graph', async () => {
  const registry = await loadGraphRegistry('examples/graphs/index.ts', ROOT);
  const res = await appWith(registry).request('/api/graphs');
  expect(res.status).toBe(200);
  // Through JSON, as a client reads it.
  expect(await res.json()).toEqual(JSON.parse(JSON.stringify({ graphs: registry.list() })));
  expect(registry.list().length).toBe(2);
});

test('no registry: an empty list', async () => {
  const res = await appWith(undefined).request('/api/graphs');
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ graphs: [] });
});

test('authentication on: a credential is needed, as for listing agents', async () => {
  const registry = await loadGraphRegistry('test/fixtures/graphs/valid-graphs.ts', ROOT);
  const app = appWith(registry, TOKEN);
  expect((await app.request('/api/graphs')).status).toBe(401);
  const res = await app.request('/api/graphs', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { graphs: { name: string }[] }).graphs.map((g) => g.name)).toEqual([
    'one-step',
    'check-fix',
  ]);
});

test('the OpenAPI document describes the route and its graph', async () => {
  const doc = (await (await appWith(undefined).request('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, unknown> };
  };
  expect(Object.keys(doc.paths['/api/graphs'] ?? {})).toEqual(['get']);
  expect(Object.keys(doc.components.schemas)).toEqual(
    expect.arrayContaining(['GraphList', 'RegisteredGraph', 'Graph']),
  );
});

test('the CLI reads the same list over the API (cairn graphs with CAIRN_API_URL)', async () => {
  const registry = await loadGraphRegistry('examples/graphs/index.ts', ROOT);
  const app = appWith(registry, TOKEN);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  try {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const graphs = await new CairnApi({ url: `http://127.0.0.1:${port}`, token: TOKEN }).graphs();
    expect(graphs).toEqual(JSON.parse(JSON.stringify(registry.list())));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
