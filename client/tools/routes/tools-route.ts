/**
 * `GET /api/tools` (docs/contracts.md#http-api): the tools the task queue's workers offer — every
 * registered tool (built-in, user module, MCP server) and those the workflows implement, each with
 * its JSON Schema, effect and whether its calls need approval — as their `listTools` activity
 * answers (tools/worker-tools.ts). 503 `AGENT_UNAVAILABLE` when no worker answers in 5 s.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiFailure } from '../../http/errors';
import { ErrorBody } from '../../http/schemas';
import type { ToolInfo } from '../../../workflows/model/tools/tool-types';

const Tool = z
  .object({
    name: z.string(),
    description: z.string(),
    effect: z.enum(['read', 'write']),
    idempotent: z.boolean(),
    needsApproval: z.boolean().openapi({ description: 'Its writes wait for a person (without a policy file)' }),
    parameters: z.record(z.string(), z.unknown()).openapi({ description: "The arguments' JSON Schema" }),
    readWhen: z.looseObject({}).optional(),
    policy: z.boolean().optional().openapi({ description: 'The approval policy decides each call' }),
    autoApproved: z.boolean().optional(),
  })
  .openapi('Tool');

const ToolList = z.object({ tools: z.array(Tool) }).openapi('ToolList');

const route = createRoute({
  method: 'get',
  path: '/api/tools',
  summary: 'The tools the workers offer, as their listTools activity answers',
  responses: {
    200: { description: 'The tools', content: { 'application/json': { schema: ToolList } } },
    503: {
      description: 'No worker answered in 5 s (AGENT_UNAVAILABLE)',
      content: { 'application/json': { schema: ErrorBody } },
    },
  },
});

/** Registers the route; without `tools` (an app with no Temporal client) it answers 503. */
export function registerToolsRoute(app: OpenAPIHono, tools: (() => Promise<ToolInfo[]>) | undefined): void {
  app.openapi(route, async (c) => {
    if (!tools) throw new ApiFailure('AGENT_UNAVAILABLE', 'this server reaches no worker to ask for its tools');
    return c.json({ tools: await tools() }, 200);
  });
}
