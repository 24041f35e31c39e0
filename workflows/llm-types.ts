/**
 * The JSON shapes that cross the LLM activity boundary: what a workflow asks of the model and
 * what comes back, and the conversation messages and model settings that also travel in the
 * agent's input, a step's input and both carries. Each type is the zod schema's `z.infer`, so a
 * field cannot be written in one and forgotten in the other. Pure zod — the openai package never
 * reaches workflow code.
 */
import { z } from 'zod';
import { tokenUsageSchema, type TokenUsage } from './state/step-run-schema';

/** The model name of the offline demo model, which agents show as a label. */
export const DEMO_MODEL = 'cairn-offline-demo';

/** Why a model call is made; sent as the `X-Cairn-Purpose` header (docs/contracts.md#llm-protocol). */
export const llmPurposeSchema = z.enum(['plan', 'replan', 'step', 'summary', 'model']);
/** Why a model call is made; sent as the `X-Cairn-Purpose` header (docs/contracts.md#llm-protocol). */
export type LlmPurpose = z.infer<typeof llmPurposeSchema>;

/** Per-agent model settings (the agent input's `model`), with the bounds the agent input takes. */
export const modelSettingsSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  maxTokens: z.number().int().positive().max(1_000_000).optional(),
  /** The model's context window in tokens; conversations are cut to fit it (workflows/fit-conversation.ts). */
  contextTokens: z.number().int().min(512).max(10_000_000).optional(),
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

/** Reply schemas the LLM activity knows: a whole plan, or the remaining steps of a replan. */
export const llmReplySchemaNameSchema = z.enum(['plan', 'replan']);
/** Reply schemas the LLM activity knows: a whole plan, or the remaining steps of a replan. */
export type LlmReplySchema = z.infer<typeof llmReplySchemaNameSchema>;

/** Points at the first `length` messages of conversation `key` of a workflow run (read with the `conversation` query). */
export const conversationRefSchema = z.object({
  workflowId: z.string(),
  runId: z.string(),
  key: z.string(),
  length: z.number().int().nonnegative(),
});
/** Points at `length` messages of conversation `key` of a workflow run. */
export type ConversationRef = z.infer<typeof conversationRefSchema>;

/** Input of the `callLlm` activity. */
export const llmCallInputSchema = z.object({
  purpose: llmPurposeSchema,
  /** Workflow id of the agent (header `X-Cairn-Agent`). */
  agentId: z.string(),
  /** Step id (header `X-Cairn-Step`), for step calls. */
  stepId: z.string().optional(),
  model: modelSettingsSchema.optional(),
  /** The conversation inline — only while it is small (see workflows/conversation.ts). */
  messages: z.array(llmMessageSchema).optional(),
  /**
   * The conversation by reference: the activity reads it with the `conversation` query, so
   * growing conversations never enter history as activity input.
   */
  conversation: conversationRefSchema.optional(),
  /** Tools offered to the model, by name; the activity resolves their JSON Schemas. */
  toolNames: z.array(z.string()).optional(),
  /** Ask for a JSON object in the content. */
  json: z.boolean().optional(),
  /**
   * The JSON Schema the content must match, by name (the activity derives it from the zod plan
   * schemas): sent as a strict `response_format: json_schema` where the endpoint takes one.
   * Implies `json`.
   */
  schema: llmReplySchemaNameSchema.optional(),
});
/** Input of the `callLlm` activity. */
export type LlmCallInput = z.infer<typeof llmCallInputSchema>;

/** Result of the `callLlm` activity. */
export const llmCallResultSchema = z.object({
  content: z.string().nullable(),
  toolCalls: z.array(llmToolCallSchema),
  /** `length` when the reply was cut at its `max_tokens` (or the context's end). */
  finishReason: z.string(),
  model: z.string(),
  usage: tokenUsageSchema,
  /** What the timeline should hear about this call, e.g. a feature the endpoint refused. */
  notices: z.array(z.string()).optional(),
});
/** Result of the `callLlm` activity. */
export type LlmCallResult = z.infer<typeof llmCallResultSchema>;
