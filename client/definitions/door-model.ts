/**
 * The OpenAI-compatible door's `model` is an agent definition's name (`cairn`: the built-in
 * default). A new thread opened by the door with another model is bound to that definition
 * (bind-thread.ts); a model no definition has is refused as OpenAI refuses one — 404 with
 * `code: "model_not_found"` in OpenAI's error shape, so the official clients raise their
 * NotFoundError with that code.
 */
import type { Context } from 'hono';
import { DEFAULT_DEFINITION, type DefinitionRegistry } from './definition-registry';

/** OpenAI's error body for a model it does not have. */
export function modelNotFound(c: Context, model: string, definitions: DefinitionRegistry): Response {
  const known = definitions.list().map((d) => d.definition.name);
  return c.json(
    {
      error: {
        message: `The model \`${model}\` does not exist (the models are the agent definitions: ${known.join(', ')})`,
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    },
    404,
  );
}

/** The definition a new thread opened with `model` is bound to: none for the built-in default. */
export function definitionOfModel(model: string): { definition?: string } {
  return model === DEFAULT_DEFINITION ? {} : { definition: model };
}
