/**
 * The activities workflow code calls, as it sees them: what `proxyActivities<Activities>`
 * (activity-proxies.ts) types its stubs with. activities/create-activities.ts builds an object of
 * this shape, so workflow code needs no import of the activities' implementation.
 */
import type { LlmCallInput, LlmCallResult } from '../model/llm/llm-call-schema';
import type { PromptTexts } from '../model/prompts/templates';
import type { ApprovalPreview, PreviewCallInput } from '../model/tools/approval-preview';
import type { PolicyCallInput, PolicyDecision } from '../model/tools/policy-decision';
import type { ToolCallInput, ToolCallOutcome, ToolInfo } from '../model/tools/tool-types';

/** Function properties, not methods: the worker registers them detached from the object. */
export interface Activities {
  /** One model call (on the LLM task queue). */
  callLlm: (input: LlmCallInput) => Promise<LlmCallResult>;
  /** The tools an agent may use: built-ins and registered ones, or those on its allow list. */
  listTools: (allow?: string[]) => Promise<ToolInfo[]>;
  /** The approval policy's decision on one call, with the rule that made it. */
  decideToolCall: (input: PolicyCallInput) => Promise<PolicyDecision>;
  /** How a write awaiting approval would change its file; null when unknown. */
  previewToolCall: (input: PreviewCallInput) => Promise<ApprovalPreview | null>;
  /** Runs one tool call. */
  runTool: (input: ToolCallInput) => Promise<ToolCallOutcome>;
  /** The operator's prompt texts, read once by each agent at its start (a local activity). */
  readPrompts: () => Promise<PromptTexts>;
}
