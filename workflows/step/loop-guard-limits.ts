/**
 * The limits of a step's loop guards (workflows/step/loop-guards.ts) and their defaults: plain
 * data, shared by the agent input schema (clients import it) and the step workflow.
 */

/** The limits of the guards (the agent input's `limits`). */
export interface LoopGuardLimits {
  maxToolCallsPerReply: number;
  maxIdenticalCalls: number;
  maxToolErrors: number;
}

/** The defaults, shared by the agent input schema and steps started without limits. */
export const DEFAULT_LOOP_GUARDS: LoopGuardLimits = {
  maxToolCallsPerReply: 5,
  maxIdenticalCalls: 3,
  maxToolErrors: 10,
};
