/**
 * The limits of a step's loop guards (workflows/step/loop-guards.ts) and their defaults: plain
 * data, shared by the agent input schema (clients import it) and the step workflow.
 */
import { z } from 'zod';

/** The limits of the guards (the agent input's `limits`), as a step's input carries them. */
export const loopGuardLimitsSchema = z.object({
  maxToolCallsPerReply: z.number().int().min(1),
  maxIdenticalCalls: z.number().int().min(1),
  maxToolErrors: z.number().int().min(1),
});

/** The limits of the guards (the agent input's `limits`). */
export type LoopGuardLimits = z.infer<typeof loopGuardLimitsSchema>;

/** The defaults, shared by the agent input schema and steps started without limits. */
export const DEFAULT_LOOP_GUARDS: LoopGuardLimits = {
  maxToolCallsPerReply: 5,
  maxIdenticalCalls: 3,
  maxToolErrors: 10,
};
