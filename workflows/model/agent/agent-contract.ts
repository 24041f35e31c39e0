/**
 * What other workflows and programs rely on about an agent, without importing its
 * implementation: the workflow type names, the result shape, and the input a step gives a
 * nested agent (`sub_agent`). Neutral ground, so `step/` never imports `agent/`.
 */
import { z } from 'zod';
import type { AgentInput } from './agent-input';
import { tokenUsageSchema } from '../state/step-run-schema';
import { earlierApprovalSchema, MAX_EARLIER_APPROVALS } from '../tools/approval-reuse';

/** Workflow type of an agent task (contract). */
export const AGENT_WORKFLOW_TYPE = 'agentWorkflow';
/** Workflow type of one plan step, a child of its agent (contract). */
export const STEP_WORKFLOW_TYPE = 'stepWorkflow';

/** What `agentWorkflow` returns (docs/contracts.md#agent-result). */
export const agentResultSchema = z.object({
  /** `stopped`: ended early by a budget (or deadline) decision; `answer` is a mechanical summary. */
  status: z.enum(['completed', 'stopped', 'cancelled']),
  answer: z.string().optional(),
  usage: tokenUsageSchema,
  /** Why a `stopped` agent stopped: `budget` or `deadline` (as the state's `stopReason`). */
  stopReason: z.string().optional(),
  /** A thread's turn (input `thread`): its steps, each result cut, for the thread's later turns. */
  steps: z.array(z.object({ id: z.string(), title: z.string(), result: z.string().optional() })).optional(),
  /** A thread's turn: the tool calls people approved in it, which later turns need not ask again. */
  approvals: z.array(earlierApprovalSchema).max(MAX_EARLIER_APPROVALS).optional(),
  /**
   * A thread's turn: the ids of the thread's messages steered into it that a step's model heard
   * (the steps' round reports' `heard`); the thread queues the others as its next turn.
   */
  heard: z.array(z.string()).optional(),
});

/** What `agentWorkflow` returns. */
export type AgentResult = z.infer<typeof agentResultSchema>;

/**
 * The input a step starts a nested agent with: an agent input (its schema is
 * agent/agent-input.ts) that is planned, never asks and has no plan check, naming the tools it
 * may use. Under a budget its `limits` are what the tree's budget had left when the step started
 * it: reaching them stops the nested agent (`stopped`, reason `budget`); it never asks a person.
 */
export type NestedAgentInput = AgentInput & {
  task: string;
  nested: true;
  mode: { plan: true; ask: false; confirmPlan: false };
  /** The tools the nested agent may use (names). */
  tools: string[];
};

/** The signature `executeChild` needs to start a nested agent by its type name. */
export type NestedAgentWorkflow = (input: NestedAgentInput) => Promise<AgentResult>;
