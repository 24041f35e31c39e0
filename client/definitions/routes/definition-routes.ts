/**
 * The definition catalogue (docs/contracts.md#http-api): `GET /api/agent-definitions` lists the
 * agent definitions this server knows — the built-in `cairn` and those of `CAIRN_AGENTS` — each
 * with its name, description, version and what a run of it gets (tools, model, mode); `GET
 * /api/agent-definitions/:name` answers one with its whole snapshot, what a start of it carries.
 * On the OpenAI-compatible door, `GET /v1/models` lists the same definitions as models.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiFailure } from '../../http/errors';
import { ErrorBody } from '../../http/schemas';
import type { DefinitionRegistry } from '../definition-registry';
import { definitionSummary } from '../definition-summary';

const DefinitionSummary = z
  .object({
    name: z.string(),
    description: z.string(),
    version: z.string().openapi({ description: 'SHA-256 of the resolved content, hex' }),
    label: z.string().optional(),
    tools: z.array(z.string()).optional().openapi({ description: 'The allow list; absent: every registered tool' }),
    model: z.looseObject({}).optional(),
    mode: z.looseObject({}).optional(),
    overridable: z.array(z.string()).optional(),
  })
  .openapi('AgentDefinitionSummary');

const DefinitionList = z.object({ definitions: z.array(DefinitionSummary) }).openapi('AgentDefinitionList');

const DefinitionDetail = DefinitionSummary.extend({
  content: z.record(z.string(), z.unknown()).openapi({ description: 'The resolved content a start carries' }),
}).openapi('AgentDefinition');

const NameParams = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'name', in: 'path' }, example: 'support' }),
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/agent-definitions',
  summary: 'The agent definitions (the built-in `cairn` and those of CAIRN_AGENTS), by name',
  responses: { 200: { description: 'The definitions', content: { 'application/json': { schema: DefinitionList } } } },
});

const oneRoute = createRoute({
  method: 'get',
  path: '/api/agent-definitions/{name}',
  summary: 'One agent definition with its resolved content',
  request: { params: NameParams },
  responses: {
    200: { description: 'The definition', content: { 'application/json': { schema: DefinitionDetail } } },
    404: { description: 'No such definition (NOT_FOUND)', content: { 'application/json': { schema: ErrorBody } } },
  },
});

/** Registers the catalogue routes over `definitions`. */
export function registerDefinitionRoutes(app: OpenAPIHono, definitions: DefinitionRegistry): void {
  app.openapi(listRoute, (c) => c.json({ definitions: definitions.list().map(definitionSummary) }, 200));
  app.openapi(oneRoute, (c) => {
    const { name } = c.req.valid('param');
    const registered = definitions.get(name);
    if (!registered) throw new ApiFailure('NOT_FOUND', `no agent definition "${name}"`, 'name');
    return c.json({ ...definitionSummary(registered), content: registered.snapshot.content }, 200);
  });
}
