/**
 * The LLM's JSON shapes that workflows hold and hand on: conversation messages and model
 * settings, which travel in the LLM activity's input, the agent's input, a step's input and both
 * carries. Each type is its zod schema's `z.infer`, so a field cannot be written in one and
 * forgotten in the other. The activity's own input and result are in llm-call-schema.ts (only
 * their types reach workflow code, so no run builds those schemas). Pure zod — the openai
 * package never reaches workflow code.
 */
import { z } from 'zod';
import type { TokenUsage } from './state/step-run-schema';

/** The model name of the offline demo model, which agents show as a label. */
export const DEMO_MODEL = 'cairn-offline-demo';

/** Per-agent model settings (the agent input's `model`), with the bounds the agent input takes. */
export const modelSettingsSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  maxTokens: z.number().int().positive().max(1_000_000).optional(),
  /** The model's context window in tokens; conversations are cut to fit it (workflows/fit-conversation.ts). */
  contextTokens: z.number().int().min(512).max(10_000_000).optional(),
  /** How hard a reasoning model thinks (`reasoning_effort`), where the endpoint takes it; dropped once it refuses. */
  reasoningEffort: z.enum(['low', 'medium', 'high']).optional(),
});
/** Per-agent model settings (the agent input's `model`). */
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/** A tool call the model made. `arguments` is the raw JSON text the model wrote. */
export const llmToolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });
/** A tool call the model made. `arguments` is the raw JSON text the model wrote. */
export type LlmToolCall = z.infer<typeof llmToolCallSchema>;

/** One conversation message, in a provider-neutral JSON form. */
export const llmMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    toolCalls: z.array(llmToolCallSchema).optional(),
  }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), content: z.string() }),
]);
/** One conversation message, in a provider-neutral JSON form. */
export type LlmMessage = z.infer<typeof llmMessageSchema>;

/** A tool offered to the model, its parameters as JSON Schema. */
export interface LlmToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Token counts for one call, a step or a whole agent (schema: state/step-run-schema.ts). */
export type { TokenUsage };
