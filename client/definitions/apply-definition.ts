/**
 * How a definition meets a start: the client merges, and workflow code reads only the input's
 * flat fields (`systemPrompt`, `model`, `tools`, `mode`, `limits`, `files`, `graphName`), which
 * the definition fills (its `language` as a last line of the system prompt); `definition` carries the snapshot for display and audit. A start may
 * only narrow: its `systemPrompt` is appended to the instructions, its `tools` must be among the
 * definition's, its limits may only be lower, and it changes `model` or `mode` only where the
 * definition lists them as `overridable`. Anything else is a problem naming its field.
 */
import { DEFAULT_ENDPOINT } from '../../workflows/base/llm-task-queue';
import { DEFAULT_DEFINITION } from '../../workflows/model/agent/definition-snapshot';
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import type { AgentDefinition } from './definition-schema';
import type { RegisteredDefinition } from './definition-registry';

/** What a start brings of its own (the agent input as sent, before defaults). */
export type StartFields = Partial<
  Pick<
    AgentInput,
    'systemPrompt' | 'tools' | 'limits' | 'model' | 'modelStages' | 'mode' | 'files' | 'graph' | 'graphName'
  >
> &
  Record<string, unknown>;

/** A start the definition does not allow, with the field that breaks it. */
export interface DefinitionProblem {
  field: string;
  message: string;
}

/** The model settings the agent input takes from a definition's model (a named endpoint among them). */
function inputModel(model: AgentDefinition['model']): AgentInput['model'] | undefined {
  if (!model) return undefined;
  const { endpoint, stages: _stages, ...settings } = model;
  const named = endpoint === DEFAULT_ENDPOINT ? {} : { endpoint };
  return Object.keys(settings).length > 0 || 'endpoint' in named ? { ...named, ...settings } : undefined;
}

/** The per-stage settings the agent input takes from a definition's model (`chat` is a thread's: bind-thread.ts). */
function inputStages(model: AgentDefinition['model']): AgentInput['modelStages'] | undefined {
  const { chat: _chat, ...stages } = model?.stages ?? {};
  return Object.keys(stages).length > 0 ? stages : undefined;
}

/** What the planner, the steps and a bound thread's chat are told of a definition's `language`. */
export function languageLine(language: string | undefined): string | undefined {
  return language === undefined ? undefined : `Write every answer in this language: ${language}.`;
}

function limitProblems(definition: AgentDefinition, start: StartFields): DefinitionProblem[] {
  const own = (definition.limits ?? {}) as Record<string, unknown>;
  return Object.entries((start.limits ?? {}) as Record<string, unknown>).flatMap(([key, value]) => {
    const bound = own[key];
    if (typeof bound !== 'number' || typeof value !== 'number' || value <= bound) return [];
    return [{ field: `limits.${key}`, message: `may only be lowered: definition ${definition.name} sets ${bound}` }];
  });
}

/**
 * The start's fields merged with `registered`'s definition, with its snapshot; or the problems.
 * The result is validated as an agent input by the caller, as any start is.
 */
export function applyDefinition(
  registered: RegisteredDefinition,
  start: StartFields,
):
  | { ok: true; fields: StartFields & { definition: RegisteredDefinition['snapshot'] } }
  | { ok: false; problems: DefinitionProblem[] } {
  const { definition, snapshot } = registered;
  const overridable = new Set(definition.overridable ?? []);
  const problems: DefinitionProblem[] = [...limitProblems(definition, start)];
  if (definition.tools && start.tools) {
    for (const tool of start.tools.filter((t) => !definition.tools?.includes(t)))
      problems.push({ field: 'tools', message: `${tool} is not among definition ${definition.name}'s tools` });
  }
  for (const key of ['model', 'mode'] as const) {
    if (start[key] !== undefined && !overridable.has(key))
      problems.push({ field: key, message: `definition ${definition.name} does not let a start change its ${key}` });
  }
  if (start.modelStages !== undefined && !overridable.has('model'))
    problems.push({
      field: 'modelStages',
      message: `definition ${definition.name} does not let a start change its model`,
    });
  const graphMode = definition.mode && 'graph' in definition.mode ? definition.mode.graph : undefined;
  if (graphMode !== undefined && (start.graph !== undefined || start.graphName !== undefined))
    problems.push({ field: 'graph', message: `definition ${definition.name} walks the graph ${graphMode}` });
  if (problems.length > 0) return { ok: false, problems };

  const instructions = [definition.instructions, start.systemPrompt, languageLine(definition.language)].filter(
    (t): t is string => !!t?.trim(),
  );
  const model = start.model ?? inputModel(definition.model);
  const modelStages = start.modelStages ?? inputStages(definition.model);
  // The built-in definition's templates are the built-ins (there for its version): the operator's file stays in force.
  const prompts = definition.name === DEFAULT_DEFINITION ? undefined : definition.prompts?.templates;
  const mode = start.mode ?? (definition.mode && !('graph' in definition.mode) ? definition.mode : undefined);
  const tools = start.tools ?? definition.tools?.filter((t) => !t.startsWith('agent:'));
  const files = [...(definition.files ?? []), ...(start.files ?? [])];
  const limits = { ...(definition.limits ?? {}), ...(start.limits ?? {}) };
  return {
    ok: true,
    fields: {
      ...start,
      ...(instructions.length > 0 ? { systemPrompt: instructions.join('\n\n') } : {}),
      ...(model ? { model } : {}),
      ...(modelStages ? { modelStages } : {}),
      ...(prompts && Object.keys(prompts).length > 0 ? { prompts } : {}),
      ...(mode ? { mode: mode } : {}),
      ...(tools ? { tools } : {}),
      ...(files.length > 0 ? { files } : {}),
      ...(Object.keys(limits).length > 0 ? { limits: limits } : {}),
      ...(graphMode !== undefined ? { graphName: graphMode } : {}),
      definition: snapshot,
    },
  };
}
