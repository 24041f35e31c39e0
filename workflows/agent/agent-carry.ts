/**
 * What an agent run hands the next when it continues as new (docs/architecture.md#continue-as-new): the whole state
 * (plan, step runs, interactions — open ones included — and the timeline with its cursor), the
 * planner's conversation, the tool catalogue, and where to resume. Plain JSON, so it crosses
 * the boundary intact; clients see the same workflow id and a state that simply goes on.
 */
import type { LlmMessage } from '../llm-types';
import type { ToolInfo } from '../tools/tool-types';
import type { AgentState } from './agent-state';

/** The key of the planner's conversation (also carried). */
export const PLANNER = 'planner';

/** Where a new run picks up: waiting for the plan check, or executing the plan. */
export type ResumePoint = 'plan-check' | 'execute';

/** Where a step's interaction came from, to send the answer back. */
export interface StepRequestRoute {
  stepId: string;
  requestId: string;
}

export interface AgentCarry {
  resumeAt: ResumePoint;
  state: AgentState;
  /** The planner's conversation, trimmed to the carry budget. */
  planner: LlmMessage[];
  tools: ToolInfo[];
  /** Routes of step interactions still open, by interaction id. */
  stepRoutes: Record<string, StepRequestRoute>;
}
