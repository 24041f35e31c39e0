/**
 * Loop guards of a step's ReAct loop, for models that lose their way: at most
 * `maxToolCallsPerReply` calls of one reply run; an identical call (same tool, same argument
 * digest) runs at most `maxIdenticalCalls` times in the step; after `maxToolErrors` failed tool
 * calls the step fails with STEP_TOOL_ERRORS; and an approval is asked once per digest — a
 * digest already approved in this step runs without asking again, one already rejected is
 * refused without asking. Every decision becomes a note on the agent's timeline. Pure state
 * (JSON, carried across continue-as-new); the step decides whether a guard may act (`patched`).
 */
import { z } from 'zod';
import { approvalDigest } from './approval-digest';
import type { LlmToolCall } from '../model/llm/llm-types';
import { FINISH_STEP } from '../model/tools/tool-types';
import { DEFAULT_LOOP_GUARDS, type LoopGuardLimits } from '../base/loop-guard-limits';

const count = z.number().int().nonnegative();

/** What the guards remember within a step: JSON, so it crosses continue-as-new in the step's carry. */
export const loopGuardStateSchema = z.object({
  /** How often each call digest was made. */
  calls: z.record(z.string(), count),
  /** Failed tool calls so far. */
  errors: count,
  /** Approval decisions by digest. */
  approvals: z.record(z.string(), z.enum(['approve', 'reject'])),
});

/** What the guards remember within a step. */
export type LoopGuardState = z.infer<typeof loopGuardStateSchema>;

/** The digest of a call: its tool and its arguments (parsed when they are JSON, so key order does not matter). */
export function callDigest(call: Pick<LlmToolCall, 'name' | 'arguments'>): string {
  let args: unknown = call.arguments;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    // not JSON: the text itself
  }
  return approvalDigest(call.name, args);
}

export class LoopGuards {
  readonly limits: LoopGuardLimits;
  readonly state: LoopGuardState;
  /** Guard decisions not yet reported to the agent. */
  private notes: string[] = [];

  constructor(limits?: Partial<LoopGuardLimits>, state?: LoopGuardState) {
    this.limits = { ...DEFAULT_LOOP_GUARDS, ...limits };
    this.state = state ? structuredCopy(state) : { calls: {}, errors: 0, approvals: {} };
  }

  /**
   * Counts call `call`, the `index`th (0-based) of its reply, and says why it must not run, if
   * so: over the per-reply cap, or made too often already. `finish_step` is never refused.
   */
  refusal(call: LlmToolCall, index: number): string | undefined {
    if (call.name === FINISH_STEP) return undefined;
    const { maxToolCallsPerReply: perReply, maxIdenticalCalls: identical } = this.limits;
    if (index >= perReply) {
      // Not counted as made: the model may well repeat it in its next reply, as told.
      return (
        `not run: at most ${perReply} tool calls of one reply run, and this was call ${index + 1}. ` +
        'Make it again in your next reply if you still need it, after reading the results of the others.'
      );
    }
    const digest = callDigest(call);
    const made = (this.state.calls[digest] ?? 0) + 1;
    this.state.calls[digest] = made;
    if (made > identical) {
      return (
        `not run: this exact call (${call.name} with the same arguments) was already made ${identical} times in this step; ` +
        'its result will not change. Use the earlier result, change the arguments, or call finish_step.'
      );
    }
    return undefined;
  }

  /** Counts a failed tool call; true once the step's error budget is spent. */
  failed(): boolean {
    this.state.errors += 1;
    return this.spent();
  }

  /** Whether the step's error budget is spent. */
  spent(): boolean {
    return this.state.errors >= this.limits.maxToolErrors;
  }

  /** The error with which the step ends once the budget is spent. */
  budgetError(stepId: string): string {
    return (
      `step ${stepId} ended after ${this.state.errors} failed tool calls (the limit is ${this.limits.maxToolErrors}): ` +
      'the model kept calling tools that failed or were refused'
    );
  }

  /** The decision already made in this step on approval `digest`, if any. */
  approvalOf(digest: string): 'approve' | 'reject' | undefined {
    return this.state.approvals[digest];
  }

  /** Remembers a person's decision on `digest` for the rest of the step. */
  rememberApproval(digest: string, decision: 'approve' | 'reject'): void {
    this.state.approvals[digest] = decision;
  }

  /** Adds a note for the agent's timeline. */
  note(message: string): void {
    this.notes.push(message);
  }

  /** The notes since the last call (for the round's report). */
  takeNotes(): string[] {
    const notes = this.notes;
    this.notes = [];
    return notes;
  }
}

/** A deep copy of plain JSON state (the carry must not be shared with the next run's input). */
function structuredCopy(state: LoopGuardState): LoopGuardState {
  return { calls: { ...state.calls }, errors: state.errors, approvals: { ...state.approvals } };
}
