/**
 * Resolution at start: an input naming a registered graph (`graphName`) and carrying none gets
 * the registered graph put in `graph`, so the workflow's input holds the whole graph — captured
 * at start, never changed by a later edit of the module (workflow code reads no files). The name
 * stays, for display. An input that carries a graph keeps it.
 */
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import { ClientError } from '../client-error';
import type { GraphRegistry } from './graph-registry';

/**
 * `input` with its named graph filled in.
 * @throws ClientError `INVALID_INPUT` (field `graphName`) when no graph is registered under the name.
 */
export function withRegisteredGraph(input: AgentInput, registry: GraphRegistry): AgentInput {
  // Anything but a name string is left to parseAgentInput, which says what is wrong with it.
  if (typeof input.graphName !== 'string' || input.graph !== undefined) return input;
  const registered = registry.get(input.graphName.trim());
  if (!registered) {
    const known = registry.list().map((g) => g.name);
    const hint = known.length ? `registered: ${known.join(', ')}` : 'no graphs are registered (set CAIRN_GRAPHS)';
    throw new ClientError(
      'INVALID_INPUT',
      `graphName: no graph "${input.graphName}" is registered (${hint})`,
      'graphName',
    );
  }
  return { ...input, graph: registered.graph };
}
