/**
 * The zod schema of the agent state returned by the `state` query — phase, plan, step runs,
 * interactions, usage and the timeline — and the types derived from it. It is the one
 * description: workflows/model/agent/agent-state.ts takes its types from here and the HTTP API's
 * OpenAPI document is built from these schemas. Pure zod: safe in the workflow sandbox.
 */
import { definitionRefSchema } from '../agent/definition-snapshot';
import { z } from 'zod';
import { actorSchema } from '../interactions/answer-input-schema';
import { interactionSchema } from '../interactions/interaction-schema';
import { planSchema } from '../plan/plan-schema';
import { graphSchema } from '../graph/graph-schema';
import { COMPLEXITIES } from '../plan/assess-reply';
import { ERROR_CODES } from '../../base/error-codes';
import { incomingMessageSchema } from '../incoming-messages';
import { AGENT_PHASES } from './agent-phases';
import { stepRunSchema, tokenUsageSchema } from './step-run-schema';

export { AGENT_PHASES, TERMINAL_PHASES, isTerminalPhase, type TerminalPhase } from './agent-phases';

const count = z.number().int().nonnegative();

/** The phase an agent is in. */
export const agentPhaseSchema = z.enum(AGENT_PHASES);

/** Every type of timeline event. */
export const AGENT_EVENT_TYPES = [
  'plan.created',
  'plan.revised',
  'plan.rejected',
  'plan.repaired',
  'plan.kept',
  'plan.updated',
  'task.assessed',
  'llm.cut',
  'llm.notice',
  'step.started',
  'step.finished',
  'tool.called',
  'step.guard',
  'interaction.opened',
  'interaction.answered',
  'interaction.approved',
  'interaction.reminder',
  'interaction.expired',
  'answer.rejected',
  'signal.rejected',
  'replan',
  'summary',
  'agent.paused',
  'agent.resumed',
  'agent.finished',
  'message.steered',
  'input.ignored',
] as const;

/** A timeline entry; `seq` only grows, so a reader asks for `afterSeq` to get what is new. */
export const agentEventSchema = z.object({
  seq: count,
  /** Workflow time (ms since epoch). */
  at: z.number(),
  type: z.enum(AGENT_EVENT_TYPES),
  message: z.string(),
  stepId: z.string().optional(),
  interactionId: z.string().optional(),
  /** Who paused, resumed or cancelled, as Cairn's HTTP API authenticated them (by update only). */
  actor: actorSchema.optional(),
});

/** Why an agent is held: an operator's `pause`, a spent budget, or both. */
export const HOLD_REASONS = ['pause', 'budget'] as const;

/** An agent on hold: why, who paused it, and the phase it goes back to when the hold lifts. */
export const agentHoldSchema = z.object({
  reasons: z.array(z.enum(HOLD_REASONS)),
  resumePhase: agentPhaseSchema,
  by: z.string().optional(),
  reason: z.string().optional(),
  /** Who paused it, when they came through Cairn's HTTP API. */
  actor: actorSchema.optional(),
});

/** Who asked to cancel the agent (the `recordCancel` update), kept for its end and the audit. */
export const cancelRequestSchema = z.object({
  at: z.number(),
  by: z.string().optional(),
  reason: z.string().optional(),
  actor: actorSchema.optional(),
});

/** The kinds of decision the audit keeps besides answers (decision-log.ts). */
export const DECISION_KINDS = ['pause', 'resume', 'end', 'policy', 'approval.reused'] as const;

/**
 * One decision kept for the audit, outliving the timeline's window and a step's recent calls:
 * a pause, a resume, the end (with who, when they came through Cairn), or an approval policy's
 * decision on a tool call (with its rule, tool and step).
 */
export const decisionRecordSchema = z.object({
  at: z.number(),
  what: z.string(),
  kind: z.enum(DECISION_KINDS),
  actor: actorSchema.optional(),
  decision: z.string().optional(),
  rule: z.string().optional(),
  tool: z.string().optional(),
  stepId: z.string().optional(),
  /** An approval reused from an earlier turn: the interaction that gave it. */
  interactionId: z.string().optional(),
});

/**
 * One visit of an agent graph's node in `state.path`: the node, its visit number, its step id
 * (`<node>` then `<node>-<n>`), and — once left by exactly one edge — where it went and why.
 */
export const pathEntrySchema = z.object({
  node: z.string(),
  visit: z.number().int().positive(),
  stepId: z.string(),
  edge: z.object({ to: z.string(), reason: z.string() }).optional(),
});

/**
 * A failed agent's failure, matched by code: `code` is the workflow failure's type; for
 * `STEP_FAILED`, `stepId` names the step and `cause` the step's own code (`LLM_AUTH`,
 * `STEP_ROUNDS_EXHAUSTED`, …) when it failed for a coded reason.
 */
export const agentFailureSchema = z.object({
  code: z.enum(ERROR_CODES),
  stepId: z.string().optional(),
  cause: z.enum(ERROR_CODES).optional(),
});

/** The agent state: plain JSON only, so it survives queries and continue-as-new. */
export const agentStateSchema = z.object({
  phase: agentPhaseSchema,
  task: z.string(),
  plan: planSchema.optional(),
  /** A graph agent's graph, as captured at its start (absent for planned agents). */
  graph: graphSchema.optional(),
  /** A graph agent's visits, oldest first: the newest MAX_PATH_KEPT (graph-execution.ts). */
  path: z.array(pathEntrySchema).optional(),
  /** How many older visits were dropped from `path` to keep the state bounded. */
  pathDropped: count.optional(),
  /** With `mode.assess`: how complex the task was judged (simple: one step; complex: reasoning turned up). */
  assessment: z.object({ complexity: z.enum(COMPLEXITIES) }).optional(),
  /** The built-in prompt templates this agent uses in the operator's words (CAIRN_PROMPTS_FILE), by name. */
  prompts: z.object({ overridden: z.array(z.string()) }).optional(),
  /**
   * `agent`: the file tools work in the agent's own folder, `<CAIRN_WORKSPACE>/<agent id>/`
   * (config/agent-workspace.ts). Absent for agents started before per-agent workspaces: the root.
   */
  workspace: z.literal('agent').optional(),
  /** The plan's revision: 1 for the first plan, one more for each revised plan. */
  revision: count,
  steps: z.array(stepRunSchema),
  /** Open interactions and, as the audit record, answered and expired ones. */
  interactions: z.array(interactionSchema),
  usage: tokenUsageSchema,
  /** The newest events only; `eventSeq` counts them all. */
  events: z.array(agentEventSchema),
  /** The seq of the last event ever added (events older than the window are dropped). */
  eventSeq: count,
  /** Clarifying questions asked while planning. */
  asks: count,
  /** Replans done after steps that asked for one. */
  replans: count,
  /** The agent definition it was started from (its name, version and label); absent: none. */
  definition: definitionRefSchema.optional(),
  /** The model that answered (as the endpoint names it). */
  model: z.string().optional(),
  /** True when that model is the offline demo model: the answers are canned. */
  demo: z.boolean().optional(),
  /** Whether the latest model call streamed (false: the endpoint cannot, no live text); absent before the first call. */
  streaming: z.boolean().optional(),
  result: z.string().optional(),
  /** Why the agent failed, in words (kept as it always was); `failure` says it in codes. */
  error: z.string().optional(),
  /** Why the agent failed, in codes: set with `error` when the agent fails. */
  failure: agentFailureSchema.optional(),
  /** Present while the agent is held (phase `paused`). */
  hold: agentHoldSchema.optional(),
  /** The token budget in force: `limits.tokenBudget`, or the last `raise`. */
  tokenBudget: z.number().int().positive().optional(),
  /** The cost budget in force (US dollars): `limits.costBudgetUsd`, or the last `raise`. */
  costBudgetUsd: z.number().positive().optional(),
  /** When the deadline falls (workflow time, ms since the epoch), when the agent has one. */
  deadlineAt: z.number().optional(),
  /** Why the agent ended early, when it ended as `stopped` (`budget`, `deadline`, `max_iterations`). */
  stopReason: z.string().optional(),
  /** Who asked to cancel it, recorded just before the cancellation was requested. */
  cancelRequest: cancelRequestSchema.optional(),
  /**
   * The decisions the audit lists besides answers, oldest first: the newest MAX_DECISIONS_KEPT
   * (decision-log.ts). Absent on states of runs that began before it was kept.
   */
  decisions: z.array(decisionRecordSchema).optional(),
  /** Messages steered in while no step ran, oldest first, for the steps that start next (agent-steer.ts). */
  heldSteers: z.array(incomingMessageSchema).optional(),
  /**
   * The ids of the messages steered in that a step's model heard (its round reports' `heard`),
   * oldest first, the newest MAX_HEARD (agent/agent-steer.ts): a thread's turn passes them on in its result, and its
   * thread queues the others as its next turn.
   */
  heard: z.array(z.string()).optional(),
  /** How many older decisions were dropped from `decisions` to keep the state bounded. */
  decisionsDropped: count.optional(),
});
