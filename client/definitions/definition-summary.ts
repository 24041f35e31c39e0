/**
 * What the catalogue (`GET /api/agent-definitions`, `cairn definitions`) says of a definition:
 * its name, description, version and label, and what a run of it gets — tools, model, mode, and
 * what a start may change.
 */
import type { RegisteredDefinition } from './definition-registry';
import type { AgentDefinition } from './definition-schema';

/** One definition in the catalogue. */
export interface DefinitionSummary {
  name: string;
  description: string;
  version: string;
  label?: string;
  tools?: string[];
  model?: NonNullable<AgentDefinition['model']>;
  mode?: NonNullable<AgentDefinition['mode']>;
  overridable?: NonNullable<AgentDefinition['overridable']>;
}

/** What the catalogue says of one definition. */
export function definitionSummary({ definition, snapshot }: RegisteredDefinition): DefinitionSummary {
  return {
    name: definition.name,
    description: definition.description,
    version: snapshot.version,
    ...(definition.label !== undefined ? { label: definition.label } : {}),
    ...(definition.tools ? { tools: definition.tools } : {}),
    ...(definition.model ? { model: definition.model } : {}),
    ...(definition.mode ? { mode: definition.mode } : {}),
    ...(definition.overridable ? { overridable: definition.overridable } : {}),
  };
}
