/**
 * The step id, shared by plans (a step's id), graphs (a node's id, and a visit's step id) and
 * step runs (a reused step's reference): no one folder owns it, so `plan/` and `graph/` import
 * nothing of each other for it. Pure: safe in the workflow sandbox.
 */
import { z } from 'zod';

/** Longest step id: ids become part of child workflow ids (`<agent id>/step-<id>`). */
export const MAX_STEP_ID_LENGTH = 40;

/**
 * A step id: letters, digits, `_` and `-` only, so it is safe inside a workflow id, and not a
 * property name of `Object.prototype`, so it is safe as a key of a JSON record.
 */
export const stepIdSchema = z
  .string()
  .min(1, { error: 'must not be empty', abort: true })
  .max(MAX_STEP_ID_LENGTH, `must be at most ${MAX_STEP_ID_LENGTH} characters`)
  .regex(/^[A-Za-z0-9_-]+$/, 'must contain only letters, digits, "_" and "-"')
  // Ids key JSON records in workflow state; `__proto__`, `constructor`, `valueOf`… would not.
  .refine((id) => !(id in Object.prototype), 'must not be a name JavaScript objects reserve, like "constructor"')
  .describe('Unique step id: letters, digits, "_" and "-" only');

/** An earlier step named by the agent that ran it and its id there (a plan's `reuse`, a step's `reused`). */
export const reuseRefSchema = z.object({
  agentId: z.string().min(1).max(300).describe('The agent (a thread turn) that ran the step'),
  stepId: stepIdSchema,
});
