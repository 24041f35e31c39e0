/**
 * The phases of an agent as plain lists, with no zod: the state schema builds its enum from
 * them, and the web page loads this module in the browser (client/http/browser-rules.ts) to
 * know when an agent has ended.
 */

/** Every phase an agent can be in, in lifecycle order. */
export const AGENT_PHASES = [
  'planning',
  'awaiting_input',
  'executing',
  /** Held by an operator's pause or a spent budget: no new model or tool call starts. */
  'paused',
  'replanning',
  'summarizing',
  'completed',
  /** Ended early by a budget or deadline decision, with the finished steps' results. */
  'stopped',
  'failed',
  'cancelled',
] as const;

/** A phase of {@link AGENT_PHASES}. */
export type AgentPhaseName = (typeof AGENT_PHASES)[number];

/** The phases an agent never leaves: its workflow has ended (or is ending). */
export const TERMINAL_PHASES = [
  'completed',
  'stopped',
  'failed',
  'cancelled',
] as const satisfies readonly AgentPhaseName[];

/** A phase of {@link TERMINAL_PHASES}. */
export type TerminalPhase = (typeof TERMINAL_PHASES)[number];

/** Whether `phase` is one of {@link TERMINAL_PHASES}: the agent has ended. */
export function isTerminalPhase(phase: string): phase is TerminalPhase {
  return (TERMINAL_PHASES as readonly string[]).includes(phase);
}
