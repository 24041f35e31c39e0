/**
 * The `stepWorkflow` contract: what the agent hands a step (its input), what it gets back (the
 * outcome), and what a step run hands the next when it continues as new (the carry). Each type
 * is its zod schema's `z.infer`.
 *
 * The input and the carry are contracts between releases: an agent on one release may start a
 * step that a worker of the next release runs or replays, and a step run may continue as new
 * onto newer code. So both name their `version`, and these schemas describe the current version
 * only; step-migration.ts reads every version through the versioned reader. Version 1 is what
 * releases up to 0.3.0 wrote, without a `version` field.
 */
import { z } from 'zod';
import { budgetLeftSchema } from '../model/llm/budget-left';
import { ERROR_CODES } from '../base/error-codes';
import { llmMessageSchema, modelSettingsSchema } from '../model/llm/llm-types';
import { stepProgressSchema } from '../contract/messages';
import { planStepSchema } from '../model/plan/plan-schema';
import { principalSchema } from '../model/principal';
import { earlierApprovalSchema } from '../model/tools/approval-reuse';
import { toolInfoSchema } from '../model/tools/tool-types';
import { promptTextsSchema } from '../model/prompts/prompt-texts';
import { loopGuardLimitsSchema } from '../base/loop-guard-limits';
import { transcriptLogSchema } from '../contract/step-transcript';
import { incomingMessageSchema } from '../model/incoming-messages';
import { loopGuardStateSchema } from './loop-guards';

/**
 * The version of the step input this code writes. Raise it, with a frozen schema of the old
 * version and a step up from it in step-migration.ts, whenever an input of the current version
 * would no longer parse with stepInputSchema, or would mean something else
 * (docs/operations.md#the-carry-is-a-versioned-contract). A new optional field needs none.
 */
export const STEP_INPUT_VERSION = 1;

/** The version of the step carry this code writes; raised by the same rule as STEP_INPUT_VERSION. */
export const STEP_CARRY_VERSION = 1;

const count = z.number().int().nonnegative();

/** What the agent hands a step: its own description, its dependencies' results, the agent's tools and settings. */
export const stepInputSchema = z.object({
  version: z.literal(STEP_INPUT_VERSION),
  /** Workflow id of the agent that runs this step. */
  agentId: z.string(),
  task: z.string(),
  step: planStepSchema,
  /**
   * The files the agent's input names (uploads: `inputs/<name>`), told to the step in its task
   * message. Absent in steps started before agents passed them on, and when there are none.
   */
  files: z.array(z.string()).optional(),
  /** Results of the steps this one depends on — and only those. */
  dependencies: z.array(z.object({ id: z.string(), title: z.string(), result: z.string() })),
  tools: z.array(toolInfoSchema),
  systemPrompt: z.string().optional(),
  /** The agent's prompt texts (the operator's overrides of built-in templates); absent: the built-ins. */
  prompts: promptTextsSchema.optional(),
  model: modelSettingsSchema.optional(),
  /** The model settings of its `verify` call, when they differ from `model`'s (the agent's verify stage). */
  verifyModel: modelSettingsSchema.optional(),
  maxStepRounds: z.number().int().min(1),
  /** Loop guard limits (the agent's `limits`); absent, as in steps started before they existed: the defaults. */
  guards: loopGuardLimitsSchema.optional(),
  /** Whether `ask_user` is offered. */
  canAsk: z.boolean(),
  /** The agent has a budget: it acknowledges each round's report before the next call starts. */
  metered: z.boolean().optional(),
  /** What the tree's budget had left when the step started (a nested agent gets the rest as its own). */
  budgetLeft: budgetLeftSchema.optional(),
  /** Who started the agent (approval policies judge calls for this principal). */
  principal: principalSchema.optional(),
  /** `agent`: tool calls work in the agent's own folder; absent (agents started before it): the workspace root. */
  workspace: z.literal('agent').optional(),
  /** Calls people approved earlier (the agent's input `context.approvals`): the same call under the same policy outcome runs unasked. */
  approvals: z.array(earlierApprovalSchema).optional(),
  /** At `maxStepRounds` without a finish: `deliver` makes one last call without tools for the best answer. Absent: fail. */
  onRoundsExhausted: z.enum(['fail', 'deliver']).optional(),
  /** A `verify` call checks the finished result and may send the step back (`mode.verifySteps`). */
  verify: z.boolean().optional(),
  /**
   * Messages for the model that came to the agent while no step ran, held for the steps that
   * start next: the step's first model call hears them (step-incoming.ts). Absent when none waited.
   */
  incoming: z.array(incomingMessageSchema).optional(),
  /**
   * The agent graph node this step visits (absent for plan steps): its own system prompt and,
   * when it declares one, the JSON Schema its `finish_step` output must match.
   */
  node: z
    .object({
      id: z.string(),
      visit: z.number().int().positive(),
      systemPrompt: z.string(),
      output: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

/** What the agent hands a step, as the current version. */
export type StepInput = z.infer<typeof stepInputSchema>;

/**
 * How a step ended. `progress` is the last round's report, which rides on the outcome instead
 * of a signal of its own.
 */
export const stepOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('completed'),
    result: z.string(),
    /** A graph node's structured output, checked against its schema (`finish_step.output`). */
    output: z.unknown().optional(),
    /** How the step's done-when holds, as the model said it (`finish_step.goal_check`). */
    goalCheck: z.string().optional(),
    /** Its rounds ran out and one last call without tools gave this result (`onRoundsExhausted: deliver`). */
    delivered: z.literal(true).optional(),
    /** With `verify`: whether the checker accepted the result (false: it stands after the send-backs ran out). */
    verified: z.boolean().optional(),
    /** With `verify`: how often the checker sent the step back. */
    sentBack: count.optional(),
    rounds: count,
    progress: stepProgressSchema.optional(),
  }),
  z.object({
    status: z.literal('failed'),
    error: z.string(),
    code: z.enum(ERROR_CODES),
    rounds: count,
    progress: stepProgressSchema.optional(),
  }),
]);

/** How a step ended. */
export type StepOutcome = z.infer<typeof stepOutcomeSchema>;

/**
 * What a step run hands the next when it continues as new: where the loop stands. Carries of
 * release 0.1.0 also held `runs`, a count of runs nothing read; reading drops it.
 */
export const stepCarrySchema = z.object({
  version: z.literal(STEP_CARRY_VERSION),
  /** Rounds done so far. */
  rounds: count,
  /** The conversation, trimmed to the carry budget. */
  conversation: z.array(llmMessageSchema),
  /** Whether the agent held the step when it continued as new. */
  held: z.boolean().optional(),
  /** What the loop guards remember (call counts, failed calls, approval decisions). */
  guards: loopGuardStateSchema.optional(),
  /** What the tree's budget had left at the agent's last word. */
  left: budgetLeftSchema.optional(),
  /** With `verify`: how often the checker sent the step back so far. */
  sentBack: count.optional(),
  /** The step's transcript so far (at most 64 KiB); absent from carries written before transcripts. */
  transcript: transcriptLogSchema.optional(),
  /** Messages for the model that came after the last call, heard by the next run's first call. */
  incoming: z.array(incomingMessageSchema).optional(),
});

/** What a step run hands the next, as the current version. */
export type StepCarry = z.infer<typeof stepCarrySchema>;
