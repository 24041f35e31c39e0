/**
 * What the offline demo model answers one request with: text, reasoning (sent as
 * `reasoning_content`, as llama.cpp and vLLM send it) and tool calls — any of them, as a model
 * that explains itself writes a sentence before its tool calls.
 */
import type { WireToolCall } from '../chat-completions-wire';

/** The demo's answer to one request. */
export interface DemoReply {
  content?: string;
  reasoning?: string;
  toolCalls?: WireToolCall[];
}
