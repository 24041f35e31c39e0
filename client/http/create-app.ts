/**
 * The HTTP API (DESIGN §5) as a Hono app with zod-described routes, so the OpenAPI document
 * at `/api/openapi.json` is generated from the same schemas that validate requests. Today it
 * serves health and the document; the agent routes and the web page build on it.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';

/** What the HTTP layer needs from outside: injected so tests can use a real or a dead server. */
export interface AppDeps {
  /** Resolves true when the Temporal frontend answers its health check. */
  temporalHealthy(): Promise<boolean>;
  version: string;
}

const Health = z
  .object({
    status: z.enum(['ok', 'degraded']),
    temporal: z.enum(['up', 'down']),
    version: z.string(),
  })
  .openapi('Health');

const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness of the API and its Temporal connection',
  responses: {
    200: { description: 'Serving, and Temporal answers', content: { 'application/json': { schema: Health } } },
    503: { description: 'Serving, but Temporal does not answer', content: { 'application/json': { schema: Health } } },
  },
});

/** Builds the app; the caller serves it (see main.ts). */
export function createApp(deps: AppDeps): OpenAPIHono {
  const app = new OpenAPIHono();
  app.openapi(healthRoute, async (c) => {
    const up = await deps.temporalHealthy().catch(() => false);
    const body = { status: up ? 'ok' : 'degraded', temporal: up ? 'up' : 'down', version: deps.version } as const;
    return up ? c.json(body, 200) : c.json(body, 503);
  });
  app.doc('/api/openapi.json', { openapi: '3.1.0', info: { title: 'Cairn API', version: deps.version } });
  return app;
}
