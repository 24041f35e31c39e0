/**
 * `GET /api/graphs` (docs/contracts.md#http-api): the agent graphs registered with `defineGraph`
 * in the `CAIRN_GRAPHS` module, each checked with its defaults filled in — what an agent started
 * with `graphName` captures. Read by the web page's graph picker and `cairn graphs`.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GraphRegistry } from '../graph-registry';
import { GraphList } from '../../http/schemas';

const graphsRoute = createRoute({
  method: 'get',
  path: '/api/graphs',
  summary: 'The registered agent graphs (CAIRN_GRAPHS), by name',
  responses: { 200: { description: 'The graphs', content: { 'application/json': { schema: GraphList } } } },
});

/** Registers `GET /api/graphs` over `graphs` (none registered: an empty list). */
export function registerGraphRoutes(app: OpenAPIHono, graphs: GraphRegistry | undefined): void {
  app.openapi(graphsRoute, (c) => c.json({ graphs: graphs?.list() ?? [] }, 200));
}
