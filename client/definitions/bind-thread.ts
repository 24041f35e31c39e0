/**
 * A thread bound to a definition (`POST /api/threads { definition }`): the thread takes the
 * definition's snapshot when it is opened and keeps it for life — every task turn's agent starts
 * with the fields the definition fills, its chat replies get its instructions, and the thread's
 * own calls (router, chat, title) its model. Resolved here, by the client that opens the thread,
 * so workflow code reads no registry.
 */
import { stageModel } from '../../workflows/model/llm/model-stages';
import type { ThreadInput } from '../../workflows/contract/thread-contract';
import { ClientError } from '../client-error';
import { applyDefinition } from './apply-definition';
import type { DefinitionRegistry } from './definition-registry';
import { registeredDefinition } from './resolve-definition';

/**
 * The thread settings binding definition `name` (over `settings`; the definition's model is the
 * thread's unless the settings name one).
 * @throws ClientError `INVALID_INPUT` (field `definition`) for an unknown name, or a definition
 *   that walks a graph (a thread's turns plan).
 */
export function boundThreadSettings(registry: DefinitionRegistry, name: string, settings: ThreadInput): ThreadInput {
  const registered = registeredDefinition(registry, name);
  const applied = applyDefinition(registered, {});
  if (!applied.ok || applied.fields.graphName !== undefined)
    throw new ClientError('INVALID_INPUT', `definition: "${name}" walks a graph; a thread's turns plan`, 'definition');
  const { systemPrompt, tools, model, modelStages, prompts, mode, limits, files, definition } = applied.fields;
  const agent = {
    definition,
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(tools ? { tools } : {}),
    ...(model ? { model } : {}),
    ...(modelStages ? { modelStages } : {}),
    ...(prompts ? { prompts } : {}),
    ...(mode ? { mode: mode as Record<string, unknown> } : {}),
    ...(limits ? { limits: limits as Record<string, unknown> } : {}),
    ...(files ? { files } : {}),
  };
  // The thread's own calls (router, chat, title) use the definition's chat stage over its model.
  const own = stageModel(model, registered.definition.model?.stages, 'chat');
  return { ...(own ? { model: own } : {}), ...settings, agent };
}
