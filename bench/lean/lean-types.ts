/**
 * What the lean baseline's workflow and activities exchange: plain data, no zod (the baseline
 * is the simplest correct Temporal program, not a validated one).
 */

/** One chat message as the Chat Completions API takes it. */
export interface LeanMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
}

/** One model call: who asks (the fake's `x-cairn-purpose` / `x-cairn-step` headers) and what. */
export interface LeanModelCall {
  purpose: 'plan' | 'step' | 'summary';
  stepId?: string;
  messages: LeanMessage[];
}

/** The model's answer: text and/or tool calls. */
export interface LeanModelReply {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
}

/** The agent's input: the task, and how many steps may run at once. */
export interface LeanAgentInput {
  task: string;
  maxParallelSteps: number;
}

/** The plan as the model returns it (only the fields the baseline reads). */
export interface LeanPlan {
  steps: { id: string; description: string; depends_on: string[] }[];
}

/** The agent's result: each step's last answer and the summary. */
export interface LeanAgentResult {
  steps: Record<string, string>;
  summary: string;
}
