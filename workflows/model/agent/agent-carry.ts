/**
 * What an agent run hands the next when it continues as new (docs/architecture/continue-as-new.md): the whole state
 * (plan, step runs, interactions — open ones included — and the timeline with its cursor), the
 * planner's conversation, the tool catalogue, and where to resume. Plain JSON, so it crosses
 * the boundary intact; clients see the same workflow id and a state that simply goes on.
 *
 * The carry is a contract between releases: a run of this release may read what a run of an
 * earlier release wrote (an agent pinned to old code that moves to new code continues as new
 * on it). So it names its `version`, and this schema describes the current version only;
 * carry-migration.ts reads every earlier version and brings it up to this one.
 */
import { z } from 'zod';
import { llmMessageSchema } from '../llm/llm-types';
import { agentStateSchema } from '../state/agent-state-schema';
import { toolInfoSchema } from '../tools/tool-types';
import { promptTextsSchema } from '../prompts/prompt-texts';

/** The key of the planner's conversation (also carried). */
export const PLANNER = 'planner';

/**
 * The version of the carry this code writes. Raise it, with a frozen schema of the old version
 * and a step up from it in carry-migration.ts, whenever a carry of the current version would
 * no longer parse with agentCarrySchema (see docs/operations.md#changing-workflow-code).
 */
export const CARRY_VERSION = 2;

/** Where a new run picks up: waiting for the plan check, or executing the plan. */
export const resumePointSchema = z.enum(['plan-check', 'execute']);

/** Where a new run picks up: waiting for the plan check, or executing the plan. */
export type ResumePoint = z.infer<typeof resumePointSchema>;

/** Where a step's interaction came from, to send the answer back. */
export const stepRequestRouteSchema = z.object({ stepId: z.string(), requestId: z.string() });

/** Where a step's interaction came from, to send the answer back. */
export type StepRequestRoute = z.infer<typeof stepRequestRouteSchema>;

/** The carry of the current version. */
export const agentCarrySchema = z.object({
  version: z.literal(CARRY_VERSION),
  resumeAt: resumePointSchema,
  state: agentStateSchema,
  /** The planner's conversation, trimmed to the carry budget. */
  planner: z.array(llmMessageSchema),
  tools: z.array(toolInfoSchema),
  /** Routes of step interactions still open, by interaction id. */
  stepRoutes: z.record(z.string(), stepRequestRouteSchema),
  /** The operator's prompt texts read at the agent's start (absent: the built-in templates throughout). */
  prompts: promptTextsSchema.optional(),
  /**
   * A graph agent's walk (graph-walk.ts) without its path, which is `state.path`: visits per
   * node, edges fired, the end reached. Nothing runs at a roll-over. Absent for planned agents.
   */
  walk: z
    .object({
      visits: z.record(z.string(), z.number().int().nonnegative()),
      fired: z.record(z.string(), z.array(z.number().int())),
      endReached: z.object({ node: z.string(), stepId: z.string() }).optional(),
    })
    .optional(),
});

/** A graph agent's walk as carried. */
export type WalkCarry = NonNullable<z.infer<typeof agentCarrySchema>['walk']>;

/** The carry of the current version. */
export type AgentCarry = z.infer<typeof agentCarrySchema>;
