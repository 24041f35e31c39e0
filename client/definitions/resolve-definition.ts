/**
 * Resolution at start: a start naming a definition (`definition: "support"`, optionally its
 * `definitionVersion`) gets the registered definition merged in (apply-definition.ts) and its
 * snapshot in `definition`, so the workflow's input holds everything it runs with — captured at
 * start, never changed by a later edit of the module. A start naming none goes as it is.
 */
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import { ClientError } from '../client-error';
import { applyDefinition } from './apply-definition';
import type { DefinitionRegistry } from './definition-registry';

/** A start as a client sends it: the agent input, with a definition named rather than carried. */
export type AgentStart =
  AgentInput | (Omit<AgentInput, 'definition'> & { definition: string; definitionVersion?: string });

/**
 * `sent` with its named definition applied.
 * @throws ClientError `INVALID_INPUT`: field `definition` when no definition has the name,
 *   `definitionVersion` when the registered one has another version, or the field a start may not
 *   change (apply-definition.ts).
 */
export function withDefinition(sent: AgentStart, registry: DefinitionRegistry): AgentInput {
  if (typeof sent.definition !== 'string') return sent as AgentInput;
  const { definition: name, definitionVersion, ...start } = sent as Extract<AgentStart, { definition: string }>;
  const registered = registeredDefinition(registry, name);
  if (definitionVersion !== undefined && definitionVersion !== registered.snapshot.version)
    throw new ClientError(
      'INVALID_INPUT',
      `definitionVersion: definition "${name}" is at version ${registered.snapshot.version}, not ${definitionVersion}`,
      'definitionVersion',
    );
  const applied = applyDefinition(registered, start);
  if (!applied.ok) {
    const lines = applied.problems.map((p) => `${p.field}: ${p.message}`);
    throw new ClientError('INVALID_INPUT', lines.join('; '), applied.problems[0]?.field);
  }
  return applied.fields as AgentInput;
}

/**
 * The definition named `name` in `registry`.
 * @throws ClientError `INVALID_INPUT` (field `definition`) naming the known ones, when none is.
 */
export function registeredDefinition(registry: DefinitionRegistry, name: string) {
  const registered = registry.get(name.trim());
  if (!registered) {
    const known = registry.list().map((d) => d.definition.name);
    throw new ClientError(
      'INVALID_INPUT',
      `definition: no agent definition "${name}" (known: ${known.join(', ')}; set CAIRN_AGENTS)`,
      'definition',
    );
  }
  return registered;
}
