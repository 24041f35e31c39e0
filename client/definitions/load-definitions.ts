/**
 * Loads the definition registry from the module named by `CAIRN_AGENTS`: its default export is
 * an array of definitions made with `defineAgent` (docs/definitions.md). Every definition is
 * checked again here (a module need not use defineAgent), so a broken one stops the process at
 * start with one error naming the module, the definition and each field's path; so does a
 * definition naming a model endpoint this process does not know, a reference to no definition, a
 * cycle, nesting too deep, or a name defined twice. No module: the built-in default alone.
 */
import { DEFAULT_ENDPOINT } from '../../workflows/base/llm-task-queue';
import { loadDefaultArray } from '../user-modules/load-default-array';
import { checkDefinition, definitionLabel } from './define-agent';
import { createDefinitionRegistry, type DefinitionRegistry } from './definition-registry';
import type { AgentDefinition } from './definition-schema';

/** The model endpoints a process knows without CAIRN_LLM_ENDPOINTS: `default` (OPENAI_BASE_URL, OPENAI_API_KEY). */
export const KNOWN_ENDPOINTS: readonly string[] = [DEFAULT_ENDPOINT];

/** The model endpoints a process with `config` knows: `default` and those CAIRN_LLM_ENDPOINTS names. */
export function knownEndpoints(config: { llm: { endpoints: readonly { name: string }[] } }): string[] {
  return [DEFAULT_ENDPOINT, ...config.llm.endpoints.map((endpoint) => endpoint.name)];
}

/** A module or definition that cannot be loaded; the message says which and why. */
export class DefinitionModuleError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DefinitionModuleError';
  }
}

/** The problems of a checked definition against what this process serves (its endpoints). */
function servedProblems(definition: AgentDefinition, endpoints: readonly string[]): string[] {
  const named: [string, string | undefined][] = [
    ['model.endpoint', definition.model?.endpoint],
    ...Object.entries(definition.model?.stages ?? {}).map(([stage, settings]): [string, string | undefined] => [
      `model.stages.${stage}.endpoint`,
      settings.endpoint,
    ]),
  ];
  return named.flatMap(([field, endpoint]) =>
    endpoint === undefined || endpoints.includes(endpoint)
      ? []
      : [`${field}: no model endpoint "${endpoint}" is known here (known: ${endpoints.join(', ')})`],
  );
}

/**
 * The registry of the module at `modulePath` (relative to `cwd`, or absolute); the built-in
 * default alone when no module is configured.
 * @throws DefinitionModuleError as the module comment says.
 */
export async function loadDefinitionRegistry(
  modulePath: string | undefined,
  cwd: string,
  endpoints: readonly string[] = KNOWN_ENDPOINTS,
): Promise<DefinitionRegistry> {
  if (modulePath === undefined) return createDefinitionRegistry([]);
  const where = `agent definition module "${modulePath}" (CAIRN_AGENTS)`;
  const values = await loadDefaultArray(
    modulePath,
    cwd,
    where,
    'of definitions: export default [defineAgent({ … })]',
    (message, cause) => new DefinitionModuleError(message, cause === undefined ? undefined : { cause }),
  );
  const definitions = values.map((value, i): AgentDefinition => {
    const checked = checkDefinition(value);
    const lines = checked.ok
      ? servedProblems(checked.definition, endpoints)
      : checked.issues.map((issue) => `${issue.path}: ${issue.message}`);
    if (checked.ok && lines.length === 0) return checked.definition;
    const text = lines.map((line) => `  ${line}`).join('\n');
    throw new DefinitionModuleError(
      `${where}, definition ${definitionLabel(value)} (default[${i}]) is invalid:\n${text}`,
    );
  });
  try {
    return createDefinitionRegistry(definitions);
  } catch (err) {
    throw new DefinitionModuleError(`${where}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
