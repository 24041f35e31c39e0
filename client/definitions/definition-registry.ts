/**
 * The definitions a process knows, by name, each with its version and the snapshot a start
 * carries: the built-in default (`cairn`) and those of the `CAIRN_AGENTS` module. A snapshot is
 * self-contained — the definitions it names as tools (`agent:<name>`) are resolved into it,
 * transitively — so a running agent never changes when a definition does. Built once at start.
 */
import type { DefinitionSnapshot } from '../../workflows/model/agent/definition-snapshot';
import { PROMPT_TEMPLATES } from '../../workflows/model/prompts/templates';
import type { AgentDefinition } from './definition-schema';
import { canonicalJson, definitionVersion } from './definition-version';

import { DEFAULT_DEFINITION } from '../../workflows/model/agent/definition-snapshot';

export { DEFAULT_DEFINITION };
/** How deep `agent:<name>` references may nest. */
export const MAX_DEFINITION_DEPTH = 3;
/** The most a start's definition snapshot may hold, as canonical JSON. */
export const MAX_SNAPSHOT_BYTES = 256 * 1024;

/**
 * What a start carries of its definition (its `content`: the definition, and those it names as
 * `agent:<name>` tools under `agents`).
 */
export type { DefinitionSnapshot };

/** A definition known to the process. */
export interface RegisteredDefinition {
  definition: AgentDefinition;
  snapshot: DefinitionSnapshot;
}

/** The registry. */
export interface DefinitionRegistry {
  list(): RegisteredDefinition[];
  get(name: string): RegisteredDefinition | undefined;
}

/** The built-in default: no instructions of its own, the built-in templates (so its version follows them). */
export function builtInDefinition(): AgentDefinition {
  const templates = Object.fromEntries(Object.entries(PROMPT_TEMPLATES).map(([name, t]) => [name, t.text]));
  return {
    name: DEFAULT_DEFINITION,
    description: 'The built-in agent: plans, asks, runs its steps with every registered tool.',
    prompts: { templates },
  };
}

const agentRefs = (definition: AgentDefinition): string[] =>
  (definition.tools ?? []).filter((t) => t.startsWith('agent:')).map((t) => t.slice('agent:'.length));

/**
 * A registry of checked definitions (the built-in default first, unless one replaces it).
 * @throws Error when two share a name, a reference names no definition, references form a cycle
 *   or nest deeper than MAX_DEFINITION_DEPTH, or a snapshot is over MAX_SNAPSHOT_BYTES.
 */
export function createDefinitionRegistry(definitions: readonly AgentDefinition[]): DefinitionRegistry {
  const byName = new Map<string, AgentDefinition>();
  for (const d of definitions) {
    if (byName.has(d.name)) throw new Error(`agent definition "${d.name}" is defined twice`);
    byName.set(d.name, d);
  }
  if (!byName.has(DEFAULT_DEFINITION)) byName.set(DEFAULT_DEFINITION, builtInDefinition());
  const resolve = (name: string, path: readonly string[]): Record<string, unknown> => {
    const d = byName.get(name);
    if (!d) throw new Error(`agent definition "${path.at(-1)}" names agent:${name}, which is not defined`);
    if (path.includes(name))
      throw new Error(`agent definitions refer to each other in a cycle: ${[...path, name].join(' → ')}`);
    if (path.length > MAX_DEFINITION_DEPTH)
      throw new Error(`agent definitions nest deeper than ${MAX_DEFINITION_DEPTH}: ${[...path, name].join(' → ')}`);
    const refs = agentRefs(d);
    const { label: _label, ...content } = d;
    if (refs.length === 0) return content;
    return { ...content, agents: Object.fromEntries(refs.map((r) => [r, resolve(r, [...path, name])])) };
  };
  const entries = [...byName.values()].map((definition): RegisteredDefinition => {
    const content = resolve(definition.name, []);
    const bytes = Buffer.byteLength(canonicalJson(content));
    if (bytes > MAX_SNAPSHOT_BYTES)
      throw new Error(`agent definition "${definition.name}" resolves to ${bytes} bytes, over ${MAX_SNAPSHOT_BYTES}`);
    const snapshot: DefinitionSnapshot = {
      name: definition.name,
      version: definitionVersion(content),
      ...(definition.label !== undefined ? { label: definition.label } : {}),
      content,
    };
    return { definition, snapshot };
  });
  const index = new Map(entries.map((e) => [e.definition.name, e]));
  return { list: () => [...entries], get: (name) => index.get(name) };
}
