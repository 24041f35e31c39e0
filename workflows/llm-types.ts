/**
 * The JSON shapes that cross the LLM activity boundary: what a workflow asks of the model and
 * what comes back. Types only — the openai package never reaches workflow code.
 */
import type { TokenUsage } from './state/step-run-schema';

/** The model name of the offline demo model, which agents show as a label. */
export const DEMO_MODEL = 'cairn-offline-demo';

/** Why a model call is made; sent as the `X-Cairn-Purpose` header (docs/contracts.md#llm-protocol). */
export type LlmPurpose = 'plan' | 'replan' | 'step' | 'summary' | 'model';

/** Per-agent model settings (the agent input's `model`). */
export interface ModelSettings {
  name?: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** The model's context window in tokens; conversations are cut to fit it (workflows/fit-conversation.ts). */
  contextTokens?: number;
}

/** A tool call the model made. `arguments` is the raw JSON text the model wrote. */
export interface LlmToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One conversation message, in a provider-neutral JSON form. */
export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A tool offered to the model, its parameters as JSON Schema. */
export interface LlmToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Token counts for one call, a step or a whole agent (schema: state/step-run-schema.ts). */
export type { TokenUsage };

/** Input of the `callLlm` activity. */
export interface LlmCallInput {
  purpose: LlmPurpose;
  /** Workflow id of the agent (header `X-Cairn-Agent`). */
  agentId: string;
  /** Step id (header `X-Cairn-Step`), for step calls. */
  stepId?: string;
  model?: ModelSettings;
  /** The conversation inline — only while it is small (see workflows/conversation.ts). */
  messages?: LlmMessage[];
  /**
   * The conversation by reference: the activity reads it with the `conversation` query, so
   * growing conversations never enter history as activity input.
   */
  conversation?: { workflowId: string; runId: string; key: string; length: number };
  /** Tools offered to the model, by name; the activity resolves their JSON Schemas. */
  toolNames?: string[];
  /** Ask for a JSON object in the content. */
  json?: boolean;
  /**
   * The JSON Schema the content must match, by name (the activity derives it from the zod plan
   * schemas): sent as a strict `response_format: json_schema` where the endpoint takes one.
   * Implies `json`.
   */
  schema?: LlmReplySchema;
}

/** Reply schemas the LLM activity knows: a whole plan, or the remaining steps of a replan. */
export type LlmReplySchema = 'plan' | 'replan';

/** Result of the `callLlm` activity. */
export interface LlmCallResult {
  content: string | null;
  toolCalls: LlmToolCall[];
  /** `length` when the reply was cut at its `max_tokens` (or the context's end). */
  finishReason: string;
  model: string;
  usage: TokenUsage;
  /** What the timeline should hear about this call, e.g. a feature the endpoint refused. */
  notices?: string[];
}
