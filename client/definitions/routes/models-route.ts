/**
 * `GET /v1/models` on the OpenAI-compatible front door (docs/contracts.md#openai-compatible-front-door):
 * the agent definitions as OpenAI models — `cairn` (the built-in default) and those of
 * `CAIRN_AGENTS` — in OpenAI's list shape, so `client.models.list()` and chat UIs offer them.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { DefinitionRegistry } from '../definition-registry';

/** What OpenAI's model objects carry; `created` is 0 (a definition has no creation time of its own). */
const ModelObject = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
});

const ModelList = z.object({ object: z.literal('list'), data: z.array(ModelObject) }).openapi('ModelList');

const route = createRoute({
  method: 'get',
  path: '/v1/models',
  summary: 'OpenAI-compatible: the agent definitions as models (`cairn` is the built-in default)',
  responses: { 200: { description: 'The models', content: { 'application/json': { schema: ModelList } } } },
});

/** Registers `GET /v1/models` over `definitions`. */
export function registerModelsRoute(app: OpenAPIHono, definitions: DefinitionRegistry): void {
  app.openapi(route, (c) =>
    c.json(
      {
        object: 'list' as const,
        data: definitions.list().map(({ definition }) => ({
          id: definition.name,
          object: 'model' as const,
          created: 0,
          owned_by: 'cairn',
        })),
      },
      200,
    ),
  );
}
