/**
 * The attribute names Cairn puts on trace spans, shared by the workflow interceptors (agent and
 * step spans) and the worker's activity interceptors (LLM and tool spans), so a trace backend
 * can filter every span of one agent or one step by the same key. Pure.
 */

/** Span attribute keys, namespaced so they never collide with Temporal's own. */
export const SPAN_ATTRIBUTES = {
  agentId: 'cairn.agent.id',
  stepId: 'cairn.step.id',
  toolName: 'cairn.tool.name',
  llmModel: 'cairn.llm.model',
  llmPurpose: 'cairn.llm.purpose',
  /** The error code (workflows/base/error-codes.ts) a failed LLM or tool call ended with. */
  errorCode: 'cairn.error.code',
} as const;

/** The agent and step a span belongs to. */
export interface SpanOwner {
  agentId: string;
  stepId?: string;
}

/** The attributes naming `owner`. */
export function ownerAttributes(owner: SpanOwner): Record<string, string> {
  return {
    [SPAN_ATTRIBUTES.agentId]: owner.agentId,
    ...(owner.stepId !== undefined ? { [SPAN_ATTRIBUTES.stepId]: owner.stepId } : {}),
  };
}
