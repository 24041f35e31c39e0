/**
 * The zod schema of the planner's JSON plan (docs/contracts.md#plan) and the JSON Schema derived from it for
 * the LLM's response format. Only the shape is checked here; the DAG rules (unique ids, known
 * dependencies, no cycles) live in check-plan.ts. Pure: safe in the workflow sandbox.
 */
import { z } from 'zod';
import { reuseRefSchema, stepIdSchema } from '../step-id';

/** Most steps one plan may have; keeps prompts, state and Temporal payloads small. */
export const MAX_PLAN_STEPS = 50;

/** One step of a plan. */
export const planStepSchema = z.object({
  id: stepIdSchema,
  title: z.string().min(1, 'must not be empty').describe('Short title of the step'),
  description: z.string().describe('What the step must do, self-contained'),
  depends_on: z
    .array(z.string())
    .default([])
    .describe('Ids of the steps whose results this step needs; it starts when they all completed'),
  done_when: z.string().optional().describe('How to tell that the step is done'),
  reused: reuseRefSchema.optional().describe('Set by Cairn on a step adopted through "reuse"; write "reuse" instead'),
});

/** The steps array: at least one step, at most {@link MAX_PLAN_STEPS}. */
const stepsSchema = z
  .array(planStepSchema)
  .min(1, 'the plan needs at least one step')
  .max(MAX_PLAN_STEPS, `the plan may have at most ${MAX_PLAN_STEPS} steps`);

/**
 * The planner's plan. `depends_on` and `replan` default to `[]`, `language` to `'en'`; the
 * parsed output is the `Plan` type (plan-types.ts), which the agent state, a step's input and
 * the plan check's interaction carry.
 */
export const planSchema = z.object({
  task: z.string().describe('The task, restated'),
  language: z.string().default('en').describe('Language of the task, e.g. "en"; the summary uses it'),
  steps: stepsSchema,
  replan: z.array(z.string()).default([]).describe('Ids of steps after whose completion the remaining plan is revised'),
  reuse: z
    .array(reuseRefSchema)
    .max(MAX_PLAN_STEPS)
    .optional()
    .describe('Earlier finished steps to adopt as completed steps of this plan (under their stepId), never run again'),
});

/**
 * The planner's answer when replanning: the same shape, but `task` and `language` may be left
 * out (the current plan's are kept) and the steps may be none (the kept steps are enough).
 */
export const remainingPlanSchema = planSchema.extend({
  task: z.string().optional(),
  language: z.string().optional(),
  steps: z.array(planStepSchema).max(MAX_PLAN_STEPS, `the plan may have at most ${MAX_PLAN_STEPS} steps`),
});

/**
 * Bounds the reply format puts on a plan's texts, beyond what the parse checks. A model decoding
 * under a grammar (llama.cpp and other local servers turn the JSON Schema into one) that starts
 * repeating itself inside a string or a list of step ids (held to the step id pattern there) is
 * made to close it, so its reply ends as JSON within its token budget instead of being cut off.
 * The parse keeps accepting longer texts: plans recorded before these bounds, and endpoints that
 * only take a JSON object, stay valid.
 */
export const PLAN_REPLY_BOUNDS = { task: 1000, title: 120, description: 1000, doneWhen: 300, dependsOn: 20 } as const;

/** A step as the planner writes it: bounded texts, and no `reused` marker (Cairn sets that). */
const planStepReplySchema = planStepSchema.omit({ reused: true }).extend({
  title: planStepSchema.shape.title.max(PLAN_REPLY_BOUNDS.title),
  description: planStepSchema.shape.description.max(PLAN_REPLY_BOUNDS.description),
  depends_on: z
    .array(stepIdSchema)
    .max(PLAN_REPLY_BOUNDS.dependsOn)
    .default([])
    .describe('Ids of the steps whose results this step needs; it starts when they all completed'),
  done_when: z.string().max(PLAN_REPLY_BOUNDS.doneWhen).optional().describe('How to tell that the step is done'),
});

/** The plan as the reply format asks for it (see {@link PLAN_REPLY_BOUNDS}). */
const planReplySchema = planSchema.extend({
  task: planSchema.shape.task.max(PLAN_REPLY_BOUNDS.task),
  steps: z.array(planStepReplySchema).min(1).max(MAX_PLAN_STEPS),
  replan: z
    .array(stepIdSchema)
    .max(MAX_PLAN_STEPS)
    .default([])
    .describe('Ids of steps after whose completion the remaining plan is revised'),
});

/**
 * JSON Schema of {@link planSchema} as the planner's reply format asks for it, derived (never
 * hand-written) for the LLM's response format.
 * A function, not a constant: workflow modules load once per workflow, and deriving it there
 * would cost every agent and step the conversion.
 */
export function planJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(planReplySchema);
}

/** JSON Schema of {@link remainingPlanSchema}, bounded like {@link planJsonSchema}: what the replanner's reply must match. */
export function remainingPlanJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(
    planReplySchema.extend({
      task: planReplySchema.shape.task.optional(),
      language: z.string().optional(),
      steps: z.array(planStepReplySchema).max(MAX_PLAN_STEPS),
    }),
  );
}
