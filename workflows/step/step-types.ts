/**
 * The `stepWorkflow` contract: what the agent hands a step, and what it gets back.
 */
import type { BudgetLeft } from '../budget-left';
import type { ErrorCode } from '../error-codes';
import type { LlmMessage, ModelSettings } from '../llm-types';
import type { StepProgress } from '../messages';
import type { PlanStep } from '../plan/plan-types';
import type { ToolInfo } from '../tools/tool-types';
import type { LoopGuardLimits } from './loop-guard-limits';
import type { LoopGuardState } from './loop-guards';

export interface StepInput {
  /** Workflow id of the agent that runs this step. */
  agentId: string;
  task: string;
  step: PlanStep;
  /** Results of the steps this one depends on — and only those. */
  dependencies: { id: string; title: string; result: string }[];
  tools: ToolInfo[];
  systemPrompt?: string;
  model?: ModelSettings;
  maxStepRounds: number;
  /** Loop guard limits (the agent's `limits`); absent, as in steps started before they existed: the defaults. */
  guards?: LoopGuardLimits;
  /** Whether `ask_user` is offered. */
  canAsk: boolean;
  /** The agent has a budget: it acknowledges each round's report before the next call starts. */
  metered?: boolean;
  /** What the tree's budget had left when the step started (a nested agent gets the rest as its own). */
  budgetLeft?: BudgetLeft;
  /** Who started the agent (approval policies judge calls for this principal). */
  principal?: { id: string; roles: string[] };
}

/**
 * How a step ended. `progress` is the last round's report, which rides on the outcome instead
 * of a signal of its own.
 */
export type StepOutcome =
  | { status: 'completed'; result: string; rounds: number; progress?: StepProgress }
  | { status: 'failed'; error: string; code: ErrorCode; rounds: number; progress?: StepProgress };

/** What a step run hands the next when it continues as new: where the loop stands. */
export interface StepCarry {
  /** Rounds done so far. */
  rounds: number;
  /** The conversation, trimmed to the carry budget. */
  conversation: LlmMessage[];
  /** Whether the agent held the step when it continued as new. */
  held?: boolean;
  /** What the loop guards remember (call counts, failed calls, approval decisions). */
  guards?: LoopGuardState;
  /** What the tree's budget had left at the agent's last word. */
  left?: BudgetLeft;
}
