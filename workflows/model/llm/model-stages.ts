/**
 * Model settings per stage: an agent (usually from its definition, docs/definitions.md) may give
 * the calls of one stage — planning, a step's rounds, the summary, a graph's route, a thread's
 * chat, a step's verification — settings of their own over its `model`. Pure, shared by the
 * workflows that make those calls.
 */
import { z } from 'zod';
import { modelSettingsSchema, type ModelSettings } from './llm-types';

/** The stages whose model calls may be tuned apart. */
export const MODEL_STAGES = ['plan', 'step', 'summary', 'route', 'chat', 'verify'] as const;
/** A stage whose model calls may be tuned apart. */
export type ModelStage = (typeof MODEL_STAGES)[number];

/** Settings for one stage's calls, over the agent's `model`. */
export const modelStagesSchema = z.partialRecord(z.enum(MODEL_STAGES), modelSettingsSchema);
/** Settings for one stage's calls, over the agent's `model`. */
export type ModelStages = z.infer<typeof modelStagesSchema>;

/** The settings of `stage`'s calls: `stages[stage]` over `model`; `model` as it is when the stage has none. */
export function stageModel(
  model: ModelSettings | undefined,
  stages: ModelStages | undefined,
  stage: ModelStage,
): ModelSettings | undefined {
  const own = stages?.[stage];
  return own ? { ...model, ...own } : model;
}

/** `{ model }` to spread into a call's input, or nothing when there are no settings. */
export const withModel = (model: ModelSettings | undefined): { model?: ModelSettings } => (model ? { model } : {});
