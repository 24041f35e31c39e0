/**
 * The JSON crossing the `callLlm` activity (docs/contracts.md#llm-protocol): what a workflow
 * asks of the model and what comes back. Each type is its zod schema's `z.infer`. Workflows
 * import only the types, so a run never builds these schemas; the activity side and the tests
 * use them.
 */
import { z } from 'zod';
import { llmMessageSchema, llmToolCallSchema, modelSettingsSchema } from './llm-types';
import { tokenUsageSchema } from '../state/step-run-schema';

/** Why a model call is made; sent as the `X-Cairn-Purpose` header (docs/contracts.md#llm-protocol). */
export const llmPurposeSchema = z.enum([
  'plan',
  'replan',
  'step',
  'summary',
  'model',
  'route',
  'verify',
  'assess',
  'chat',
  'route-message',
  'compress',
  'title',
]);
/** Why a model call is made; sent as the `X-Cairn-Purpose` header (docs/contracts.md#llm-protocol). */
export type LlmPurpose = z.infer<typeof llmPurposeSchema>;

/** Reply schemas the LLM activity knows: a whole plan, or the remaining steps of a replan. */
export const llmReplySchemaNameSchema = z.enum(['plan', 'replan', 'route', 'verify', 'assess', 'route-message']);
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

/** Input of the `callLlm` activity (calls scheduled before `ownerId` name it `agentId`: legacyLlmCallInput reads them). */
export const llmCallInputSchema = z.object({
  purpose: llmPurposeSchema,
  /**
   * Workflow id of the owner: the workflow whose call this is, whose live stream shows it and
   * whose folder holds its files — an agent, or a thread for its own calls. Header
   * `X-Cairn-Agent` and the live delta's `agentId` carry it under their public names.
   */
  ownerId: z.string(),
  /** Step id (header `X-Cairn-Step`), for step calls. */
  stepId: z.string().optional(),
  /** A thread's calls: the message they answer or route (live viewers tell replies apart by it). */
  messageId: z.string().optional(),
  model: modelSettingsSchema.optional(),
  /** The conversation inline — only while it is small (see workflows/runtime/conversation.ts). */
  messages: z.array(llmMessageSchema).optional(),
  /**
   * The conversation by reference: the activity reads it with the `conversation` query, so
   * growing conversations never enter history as activity input.
   */
  conversation: conversationRefSchema.optional(),
  /** Tools offered to the model, by name; the activity resolves their JSON Schemas. */
  toolNames: z.array(z.string()).optional(),
  /**
   * The JSON Schema of `finish_step`'s `output` (an agent graph node's structured output): the
   * activity offers `finish_step` with it. Absent: `finish_step` takes a result only.
   */
  finishOutput: z.record(z.string(), z.unknown()).optional(),
  /** Ask for a JSON object in the content. */
  json: z.boolean().optional(),
  /**
   * The JSON Schema the content must match, by name (the activity derives it from the zod plan
   * schemas): sent as a strict `response_format: json_schema` where the endpoint takes one.
   * Implies `json`.
   */
  schema: llmReplySchemaNameSchema.optional(),
});
/** Input of the `callLlm` activity (calls scheduled before `ownerId` name it `agentId`: legacyLlmCallInput reads them). */
export type LlmCallInput = z.infer<typeof llmCallInputSchema>;

/** Result of the `callLlm` activity. */
export const llmCallResultSchema = z.object({
  content: z.string().nullable(),
  toolCalls: z.array(llmToolCallSchema),
  /** `length` when the reply was cut at its `max_tokens` (or the context's end). */
  finishReason: z.string(),
  model: z.string(),
  usage: tokenUsageSchema,
  /**
   * Whether the reply came streamed; false when the endpoint cannot stream (it was called
   * without). Absent from results recorded before calls streamed.
   */
  streamed: z.boolean().optional(),
  /**
   * A summary of the reply's reasoning (`reasoning_content`, `<think>` blocks), cut to its first
   * and last characters: step calls only, for the step's transcript. Absent when it had none.
   */
  reasoning: z.string().optional(),
  /** What the timeline should hear about this call, e.g. a feature the endpoint refused. */
  notices: z.array(z.string()).optional(),
});
/** Result of the `callLlm` activity. */
export type LlmCallResult = z.infer<typeof llmCallResultSchema>;

/** A `callLlm` input as workflows of releases up to 0.3.0 scheduled it: the owner named `agentId`. */
export type LegacyLlmCallInput = Omit<LlmCallInput, 'ownerId'> & { agentId: string };

/** Any `callLlm` input, read as the current one (an activity scheduled by an older worker may run on this one). */
export function currentLlmCallInput(input: LlmCallInput | LegacyLlmCallInput): LlmCallInput {
  if ('ownerId' in input) return input;
  const { agentId, ...rest } = input;
  return { ...rest, ownerId: agentId };
}
