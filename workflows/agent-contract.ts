/**
 * What other workflows and programs rely on about an agent, without importing its
 * implementation: the workflow type names, the result shape, and the input a step gives a
 * nested agent (`sub_agent`). Neutral ground, so `step/` never imports `agent/`.
 */
import type { TokenUsage } from './llm-types';

/** Workflow type of an agent task (contract). */
export const AGENT_WORKFLOW_TYPE = 'agentWorkflow';
/** Workflow type of one plan step, a child of its agent (contract). */
export const STEP_WORKFLOW_TYPE = 'stepWorkflow';

/** What `agentWorkflow` returns. */
export interface AgentResult {
  /** `stopped`: ended early by a budget (or deadline) decision; `answer` is a mechanical summary. */
  status: 'completed' | 'stopped' | 'cancelled';
  answer?: string;
  usage: TokenUsage;
  /** Why a `stopped` agent stopped: `budget` or `deadline` (as the state's `stopReason`). */
  stopReason?: string;
}

/** The input a step starts a nested agent with: planned, never asking, no plan check. */
export interface NestedAgentInput {
  task: string;
  nested: true;
  mode: { plan: true; ask: false; confirmPlan: false };
  /** The tools the nested agent may use (names). */
  tools: string[];
  /**
   * What the tree's budget had left when the step started it: the nested agent's own budget.
   * Reaching it stops the nested agent (`stopped`, reason `budget`); it never asks a person.
   */
  limits?: { tokenBudget?: number; costBudgetUsd?: number };
}

/** The signature `executeChild` needs to start a nested agent by its type name. */
export type NestedAgentWorkflow = (input: NestedAgentInput) => Promise<AgentResult>;
