/**
 * The LLM's JSON shapes that workflows hold and hand on: conversation messages and model
 * settings, which travel in the LLM activity's input, the agent's input, a step's input and both
 * carries. Each type is its zod schema's `z.infer`, so a field cannot be written in one and
 * forgotten in the other. The activity's own input and result are in llm-call-schema.ts (only
 * their types reach workflow code, so no run builds those schemas). Pure zod — the openai
 * package never reaches workflow code.
 */
import { ENDPOINT_NAME } from '../../base/llm-task-queue';
import { z } from 'zod';
import type { TokenUsage } from '../state/step-run-schema';

/** The model name of the offline demo model, which agents show as a label. */
export const DEMO_MODEL = 'cairn-offline-demo';

/** Per-agent model settings (the agent input's `model`), with the bounds the agent input takes. */
export const modelSettingsSchema = z.object({
  /** The model endpoint by name (CAIRN_LLM_ENDPOINTS; absent or `default`: OPENAI_BASE_URL's), served on its own LLM task queue. */
  endpoint: z.string().regex(ENDPOINT_NAME).optional(),
  name: z.string().trim().min(1).max(200).optional(),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  maxTokens: z.number().int().positive().max(1_000_000).optional(),
  /** The model's context window in tokens; conversations are cut to fit it (workflows/model/llm/fit-conversation.ts). */
  contextTokens: z.number().int().min(512).max(10_000_000).optional(),
  /** How hard a reasoning model thinks (`reasoning_effort`), where the endpoint takes it; dropped once it refuses. */
  reasoningEffort: z.enum(['low', 'medium', 'high']).optional(),
  /** The model sees images: an image `read_file` reads goes to it as an image part (loaded by the LLM activity). */
  vision: z.boolean().optional(),
  /** Stop sequences (`stop`): the reply ends before any of them. */
  stop: z.array(z.string().min(1).max(100)).min(1).max(4).optional(),
  /** `tool_choice` of calls that offer tools: `required` makes the model call one, `none` none. */
  toolChoice: z.enum(['auto', 'none', 'required']).optional(),
});
/** Per-agent model settings (the agent input's `model`). */
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/** A tool call the model made. `arguments` is the raw JSON text the model wrote. */
export const llmToolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });
/** A tool call the model made. `arguments` is the raw JSON text the model wrote. */
export type LlmToolCall = z.infer<typeof llmToolCallSchema>;

/** The image formats a vision model is sent. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** An image format a vision model is sent. */
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/**
 * An image in the agent's workspace, by reference: the LLM activity loads its bytes when it
 * builds a request, so image bytes never enter workflow history. `scope: 'agent'`: the path is
 * in the agent's own folder, else in the workspace root (agents from before per-agent folders).
 */
export const imageRefSchema = z.object({
  path: z.string().min(1),
  mediaType: z.enum(IMAGE_MEDIA_TYPES),
  bytes: z.number().int().nonnegative(),
  scope: z.literal('agent').optional(),
});
/** An image in the agent's workspace, by reference. */
export type ImageRef = z.infer<typeof imageRefSchema>;

/** One conversation message, in a provider-neutral JSON form. */
export const llmMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    toolCalls: z.array(llmToolCallSchema).optional(),
  }),
  z.object({
    role: z.literal('tool'),
    toolCallId: z.string(),
    content: z.string(),
    /** An image the tool read, sent to a vision model after the tool results as an image part. */
    image: imageRefSchema.optional(),
  }),
]);
/** One conversation message, in a provider-neutral JSON form. */
export type LlmMessage = z.infer<typeof llmMessageSchema>;

/** A tool offered to the model, its parameters as JSON Schema. */
export interface LlmToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Token counts for one call, a step or a whole agent (schema: model/state/step-run-schema.ts). */
export type { TokenUsage };
