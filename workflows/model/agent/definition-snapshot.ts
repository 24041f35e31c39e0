/**
 * What an agent started from a definition carries of it (docs/definitions.md): its name, its
 * version (the SHA-256 of its resolved content), an optional label and the resolved content
 * itself — for display, audit and forks. Set by the client that starts the agent, which also
 * fills the input's flat fields from it; workflow code reads no registry, so a running agent
 * never changes when its definition does. Absent: the agent was started without a definition.
 */
import { promptTextsSchema } from '../prompts/prompt-texts';
import { modelStagesSchema } from '../llm/model-stages';
import { z } from 'zod';
import { modelSettingsSchema } from '../llm/llm-types';

/** The name of the built-in default definition (what a start without one runs, and the door's `cairn` model). */
export const DEFAULT_DEFINITION = 'cairn';

/** An agent's definition snapshot. */
export const definitionSnapshotSchema = z.object({
  name: z.string().min(1).max(64),
  version: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex'),
  label: z.string().min(1).max(100).optional(),
  content: z.record(z.string(), z.unknown()),
});
/** An agent's definition snapshot. */
export type DefinitionSnapshot = z.infer<typeof definitionSnapshotSchema>;

/** What the agent state and a thread's view say of a definition: its name, version and label. */
export const definitionRefSchema = definitionSnapshotSchema.pick({ name: true, version: true, label: true });
/** What the agent state and a thread's view say of a definition. */
export type DefinitionRef = z.infer<typeof definitionRefSchema>;

/** The name, version and label of `snapshot`. */
export function definitionOfSnapshot({ name, version, label }: DefinitionSnapshot): DefinitionRef {
  return { name, version, ...(label !== undefined ? { label } : {}) };
}

/**
 * A thread bound to a definition at open (`POST /api/threads { definition }`): the snapshot and
 * the flat fields the client filled from it, which every task turn's agent starts with (a
 * message's own `mode` replaces the definition's; its `limits` may only lower the definition's);
 * `systemPrompt` is also put before the thread's chat system prompt. The thread's own model calls
 * use the thread's `model`, which the client sets from the definition too.
 */
export const threadAgentSchema = z.object({
  definition: definitionSnapshotSchema,
  systemPrompt: z.string().max(20_000).optional(),
  tools: z.array(z.string().min(1)).max(100).optional(),
  model: modelSettingsSchema.optional(),
  modelStages: modelStagesSchema.optional(),
  prompts: promptTextsSchema.optional(),
  mode: z.record(z.string(), z.unknown()).optional(),
  limits: z.record(z.string(), z.unknown()).optional(),
  files: z.array(z.string().min(1)).max(50).optional(),
});
/** A thread's bound definition. */
export type ThreadAgent = z.infer<typeof threadAgentSchema>;

/** The definition a thread runs by name: its bound definition's, else the built-in default's. */
export function threadDefinitionName(agent: ThreadAgent | undefined): string {
  return agent?.definition.name ?? DEFAULT_DEFINITION;
}
