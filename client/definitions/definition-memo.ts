/**
 * Which definition an agent runs, in its workflow memo (docs/contracts.md#search-attributes-and-what-the-temporal-ui-shows):
 * `definition` (its name) and `definitionVersion` (its version), set at start, so the Temporal
 * UI and the agent list show it without reading the input. Agents started without a definition
 * have neither.
 */
import type { DefinitionSnapshot } from '../../workflows/model/agent/definition-snapshot';

/** The memo fields of a start with `snapshot`; none without one. */
export function definitionMemo(snapshot: DefinitionSnapshot | undefined): Record<string, string> {
  return snapshot ? { definition: snapshot.name, definitionVersion: snapshot.version } : {};
}

/** What a listed agent says of its definition, read back from its memo. */
export function definitionOfMemo(memo: Record<string, unknown> | undefined): {
  definition?: { name: string; version: string };
} {
  const name = memo?.['definition'];
  const version = memo?.['definitionVersion'];
  return typeof name === 'string' && typeof version === 'string' ? { definition: { name, version } } : {};
}
