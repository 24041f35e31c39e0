/**
 * What workflow code knows about tools: names, descriptions and effects (the catalogue), and
 * the JSON crossing the `runTool` activity. Implementations live in activities/tools.
 */

/** A tool as the workflow sees it. */
export interface ToolInfo {
  name: string;
  description: string;
  effect: 'read' | 'write';
  /** Safe to retry with the same idempotency key; otherwise a write runs with one attempt. */
  idempotent: boolean;
  /** Whether a call waits for a human's `tool.approval` (write tools not auto-approved). */
  needsApproval: boolean;
  /** The JSON Schema of the arguments, to validate them before anything runs. */
  parameters: Record<string, unknown>;
}

/** Input of the `runTool` activity. */
export interface ToolCallInput {
  agentId: string;
  stepId: string;
  callId: string;
  name: string;
  /** The JSON text the model wrote; validated by the activity before anything runs. */
  arguments: string;
}

/** Outcome of a tool call; `ok: false` goes back to the model as a tool error. */
export interface ToolCallOutcome {
  ok: boolean;
  output: string;
}

/** Built-in tools handled inside the workflows rather than by the registry. */
export const FINISH_STEP = 'finish_step';
export const ASK_USER = 'ask_user';
