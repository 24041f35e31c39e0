/**
 * The HTTP API (docs/contracts.md#http-api) as a Hono app with zod-described routes, so the OpenAPI document
 * at `/api/openapi.json` is generated from the same schemas that validate requests. This file
 * wires the edge — the Host allowlist on every route, bearer auth and a body limit on `/api/*`,
 * coded errors, health — and the route files under routes/ hold the agent endpoints, built on
 * the client library.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AgentsPort } from './agents-port';
import { requireBearer } from './auth';
import { handleError, handleNotFound, sendError, validationHook } from './errors';
import { LOOPBACK_HOST_NAMES, requireAllowedHost } from './host-guard';
import { registerAgentRoutes } from './routes/agents';
import { defaultEventTiming, registerEventRoutes, type EventStreamTiming } from './routes/events';
import { registerWebRoutes } from './routes/web';

/** What the HTTP layer needs from outside: injected so tests can use a real or a dead server. */
export interface AppDeps {
  /** Resolves true when the Temporal frontend answers its health check. */
  temporalHealthy(): Promise<boolean>;
  version: string;
  /** The client library (or the slice of it the routes call). */
  agents: AgentsPort;
  /**
   * Host names (no port) the server answers to; a request naming another is refused with 421
   * before routing, so a DNS-rebinding page cannot use the API. The loopback names by default.
   */
  allowedHosts?: readonly string[];
  /** When set, every `/api/*` route requires `Authorization: Bearer <apiToken>`. */
  apiToken?: string;
  /** Largest accepted request body in bytes; 256 KiB by default. */
  maxBodyBytes?: number;
  /** Event-stream polling and heartbeat; the defaults suit production. */
  eventTiming?: Partial<EventStreamTiming>;
}

/** The default request body limit: answers and agent inputs are far smaller. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

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
  security: [],
  responses: {
    200: { description: 'Serving, and Temporal answers', content: { 'application/json': { schema: Health } } },
    503: { description: 'Serving, but Temporal does not answer', content: { 'application/json': { schema: Health } } },
  },
});

/** Builds the app; the caller serves it (see main.ts). */
export function createApp(deps: AppDeps): OpenAPIHono {
  const app = new OpenAPIHono<Env>({ defaultHook: validationHook });
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use('*', requireAllowedHost(deps.allowedHosts ?? LOOPBACK_HOST_NAMES, [healthRoute.path]));
  app.use('/api/*', requireBearer(deps.apiToken));
  app.use('/api/*', limitBodies(deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
  app.openapi(healthRoute, async (c) => {
    const up = await deps.temporalHealthy().catch(() => false);
    const body = { status: up ? 'ok' : 'degraded', temporal: up ? 'up' : 'down', version: deps.version } as const;
    return up ? c.json(body, 200) : c.json(body, 503);
  });
  registerAgentRoutes(app, deps.agents);
  registerEventRoutes(app, deps.agents, { ...defaultEventTiming, ...deps.eventTiming });
  documentApi(app, deps);
  registerWebRoutes(app);
  return app;
}

function limitBodies(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: (c) => sendError(c, 'PAYLOAD_TOO_LARGE', `the request body exceeds ${maxSize} bytes`),
  });
}

/** Serves the generated document, declaring bearer auth when a token is configured. */
function documentApi(app: OpenAPIHono, deps: AppDeps): void {
  const secured = deps.apiToken !== undefined;
  if (secured)
    app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Cairn API', version: deps.version },
    ...(secured ? { security: [{ bearerAuth: [] }] } : {}),
  });
}
