/**
 * The `stepWorkflow` contract: what the agent hands a step, and what it gets back.
 */
import type { ModelSettings } from '../llm-types';
import type { PlanStep } from '../plan/plan-types';
import type { ToolInfo } from '../tools/tool-types';

export interface StepInput {
  /** Workflow id of the agent that runs this step. */
  agentId: string;
  task: string;
  step: PlanStep;
  /** Results of the steps this one depends on — and only those (DESIGN §4.3). */
  dependencies: { id: string; title: string; result: string }[];
  tools: ToolInfo[];
  systemPrompt?: string;
  model?: ModelSettings;
  maxStepRounds: number;
  /** Whether `ask_user` is offered. */
  canAsk: boolean;
}

export type StepOutcome =
  | { status: 'completed'; result: string; rounds: number }
  | { status: 'failed'; error: string; code: string; rounds: number };
