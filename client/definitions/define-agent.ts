/**
 * `defineAgent`: how a team defines an agent in the module named by `CAIRN_AGENTS`
 * (docs/definitions.md). It checks the definition at once, so a broken one fails where it is
 * written, each problem naming its field; it is exported from Cairn's public module (cairn.ts).
 */
import { agentDefinitionSchema, type AgentDefinition, type AgentDefinitionInput } from './definition-schema';

/** A definition that breaks the schema: every problem, each with its field's path. */
export class DefinitionError extends Error {
  constructor(
    /** The definition's name as given, or `(unnamed)`. */
    readonly definition: string,
    readonly issues: readonly { path: string; message: string }[],
  ) {
    super(`agent definition ${definition} is invalid:\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`);
    this.name = 'DefinitionError';
  }
}

/** The definition checked, or every problem with its path. */
export function checkDefinition(
  value: unknown,
): { ok: true; definition: AgentDefinition } | { ok: false; issues: { path: string; message: string }[] } {
  const parsed = agentDefinitionSchema.safeParse(value);
  if (parsed.success) return { ok: true, definition: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.length > 0 ? issue.path.join('.') : '(definition)',
      message: issue.message,
    })),
  };
}

/** The name a value gives itself, quoted, for messages. */
export function definitionLabel(value: unknown): string {
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? JSON.stringify(name) : '(unnamed)';
}

/**
 * Defines an agent: returns it checked, defaults filled in.
 * @throws DefinitionError listing every problem with its field's path.
 * @example
 * export default [defineAgent({ name: 'support', description: 'Answers customers', instructions: 'Be kind.', tools: ['read_file'] })];
 */
export function defineAgent(definition: AgentDefinitionInput): AgentDefinition {
  const checked = checkDefinition(definition);
  if (!checked.ok) throw new DefinitionError(definitionLabel(definition), checked.issues);
  return checked.definition;
}
