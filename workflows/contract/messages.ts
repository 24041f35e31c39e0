/**
 * Every Temporal message of Cairn, defined once (docs/contracts.md#messages), each beside the zod
 * schema of its payload: the payload's type is that schema's `z.infer`, so the shape a handler
 * parses (message-payloads.ts) and the shape a sender writes cannot drift. Clients, the CLI, the
 * web app and tests use these objects, never string literals.
 *
 * Public: signal and update `answer`, query `state`, signals and updates `pause` and `resume`,
 * update `recordCancel`.
 * Internal: `conversation` (read by the LLM activity so conversations never travel as activity
 * input) and the step ↔ agent signals that route a step's questions through
 * the agent, which owns every interaction.
 *
 * The schemas here describe shapes only; the rules an answer or a step's question must meet
 * beyond them are checked by kind where they are parsed. Kept light: every step run builds them.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';
import type { agentStateSchema } from '../model/state/agent-state-schema';
import { budgetLeftSchema, type BudgetLeft } from '../model/llm/budget-left';
import type { IncomingMessage } from '../model/incoming-messages';
import { actorSchema } from '../model/interactions/answer-input-schema';
import type { AnswerInput, Answer, InteractionSpec } from '../model/interactions/interaction-types';
import type { LlmMessage } from '../model/llm/llm-types';
import { tokenUsageSchema, toolCallRecordSchema } from '../model/state/step-run-schema';

/** What the `state` query returns (model/state/agent-state-schema.ts). */
type AgentState = z.infer<typeof agentStateSchema>;

/** The longest partial result a cancelled step reports (step/partial-result.ts cuts it to this). */
export const MAX_PARTIAL_CHARS = 2000;

/** Longest id (step, request, interaction) and `by` a payload may carry. */
const MAX_ID = 200;
const id = z.string().min(1, 'must not be empty').max(MAX_ID, `must be at most ${MAX_ID} characters`);
const count = z.number().int('must be a whole number').nonnegative('must not be negative');
/** An object: an answer or an interaction spec, whose shape its kind decides (model/interactions/interaction-schema.ts). */
const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the `answer` update returns: the interaction answered and its answer as recorded. */
export const answerAcceptedSchema = z.object({
  interactionId: z.string(),
  answer: z.custom<Answer>(isObject, { error: 'must be an object' }),
});
export type AnswerAccepted = z.infer<typeof answerAcceptedSchema>;

/**
 * Answer an open interaction; fire-and-forget (what the Temporal UI can send). Payload:
 * answerInputSchema (model/interactions/answer-input-schema.ts, also the HTTP API's answer body).
 */
export const answerSignal = defineSignal<[AnswerInput]>('answer');
/** Answer an open interaction and learn at once whether it was accepted. */
export const answerUpdate = defineUpdate<AnswerAccepted, [AnswerInput]>('answer');

/** The `state` query's argument: only timeline events after `afterSeq`. */
export const stateQueryArgsSchema = z.object({ afterSeq: z.number().optional() });
export type StateQueryArgs = z.infer<typeof stateQueryArgsSchema>;

/** The whole agent state (model/state/agent-state-schema.ts); pass `afterSeq` to get only newer timeline events. */
export const stateQuery = defineQuery<AgentState, [StateQueryArgs?]>('state');

/** Who acted, as Cairn's HTTP API authenticated them (id, name, roles, method). */
export type Actor = z.infer<typeof actorSchema>;

/**
 * The `pause` and `resume` signals' payload: who and why (both free text, kept on the timeline).
 * It has no `actor`: one in a signal is dropped (zod strips unknown keys), so a signal cannot
 * claim a principal.
 */
export const holdRequestSchema = z.object({
  by: z.string().max(MAX_ID).optional(),
  reason: z.string().max(2000).optional(),
});

/**
 * The payload of the `pause`, `resume` and `recordCancel` updates: as the signals', plus the
 * actor Cairn's HTTP API authenticated.
 */
export const actedRequestSchema = holdRequestSchema.extend({ actor: actorSchema.optional() });

/** Who pauses or resumes, and why; `actor` only by update. */
export type HoldRequest = z.infer<typeof actedRequestSchema>;

/** Who cancels, and why (as for a pause); the audit keeps it with the agent's end. */
export type CancelRequest = HoldRequest;

/** Hold the agent: no new model or tool call starts anywhere in its tree until `resume`. */
export const pauseSignal = defineSignal<[HoldRequest?]>('pause');
/** Lift an operator's `pause`; work goes on where it stopped. */
export const resumeSignal = defineSignal<[HoldRequest?]>('resume');

/**
 * Pause or resume as an authenticated principal: Cairn's HTTP API sends these (with the actor it
 * authenticated) instead of the signals, so the timeline and the audit name who did it. The
 * signals' payloads never carry an actor (one in them is dropped).
 */
export const pauseUpdate = defineUpdate<void, [HoldRequest]>('pause');
export const resumeUpdate = defineUpdate<void, [HoldRequest]>('resume');

/**
 * Records who is about to cancel the agent. Temporal's cancellation carries no payload, so a
 * client sends this first and then requests the cancellation; the agent's end (`cancelled`)
 * then names them. It cancels nothing by itself.
 */
export const recordCancelUpdate = defineUpdate<void, [CancelRequest]>('recordCancel');

/** The `conversation` query's argument: which conversation, and how many of its first messages. */
export const conversationQueryArgsSchema = z.object({ key: z.string(), length: z.number() });
export type ConversationQueryArgs = z.infer<typeof conversationQueryArgsSchema>;

/** The first `length` messages (llm-types.ts `llmMessageSchema`) of the conversation `key` of a workflow. */
export const conversationQuery = defineQuery<LlmMessage[], [ConversationQueryArgs]>('conversation');

/**
 * Step → agent: open an interaction for this step. The spec is an `ask.*` question, held to the
 * rules of `ask_user`, or a `tool.approval` of the step's own call; the agent checks it by kind
 * (message-payloads.ts `parseStepInteraction`).
 */
export const stepInteractionRequestSchema = z.object({
  stepId: id,
  /** Unique within the step run; echoed in the answer. */
  requestId: id,
  spec: z.custom<InteractionSpec>(isObject, { error: 'must be an object' }),
});
export type StepInteractionRequest = z.infer<typeof stepInteractionRequestSchema>;

/** Step → agent: open an interaction for this step. */
export const stepInteractionSignal = defineSignal<[StepInteractionRequest]>('stepInteraction');

/** A timeline event a step's round asks for. */
export const stepNoticeSchema = z.object({
  type: z.enum(['llm.cut', 'llm.notice', 'step.guard']),
  message: z.string().max(2000),
});
export type StepNotice = z.infer<typeof stepNoticeSchema>;

/** Step → agent: what a round did. Also the last round's report on a step's outcome. */
export const stepProgressSchema = z.object({
  stepId: id,
  round: count,
  /** The model that answered this round. */
  model: z.string().optional(),
  /** Whether its model call streamed (false: the endpoint cannot stream). */
  streamed: z.boolean().optional(),
  usage: tokenUsageSchema,
  toolCalls: z.array(toolCallRecordSchema),
  /**
   * What the agent's timeline should hear of this round: its model call (a cut reply, a
   * capability step down) and its loop guards (calls refused, approvals not asked again).
   */
  notices: z.array(stepNoticeSchema).max(100).optional(),
  /**
   * The ids of the incoming messages (incoming-messages.ts) this round's model call heard first:
   * they joined the conversation just before it. A message without an id is heard but not named.
   */
  heard: z.array(id).max(100).optional(),
  /** The last report of a cancelled step, sent before it closes: not acknowledged. */
  cancelled: z.literal(true).optional(),
  /** With `cancelled`: what the step had done (its latest model text and tool results). */
  partial: z
    .string()
    .max(2 * MAX_PARTIAL_CHARS)
    .optional(),
});
export type StepProgress = z.infer<typeof stepProgressSchema>;

/** Step → agent: a round finished (usage, tool calls) — live progress. */
export const stepProgressSignal = defineSignal<[StepProgress]>('stepProgress');

/**
 * Agent → step (and, as `steer`, a thread → its running turn's agent): a message for the running
 * model's next call. A payload that does not parse is dropped.
 */
export const incomingMessageSignal = defineSignal<[IncomingMessage]>('steer');

/** Agent → step: hold or go on. */
export const stepHoldSchema = z.object({
  held: z.boolean(),
  /** Set when this answers the step's report of that round (a metered agent acknowledges each). */
  round: count.optional(),
  /** What the tree's budget has left as the agent counts it now (a metered agent; absent before nested budgets). */
  left: budgetLeftSchema.optional(),
});
export type StepHold = z.infer<typeof stepHoldSchema>;

/**
 * Agent → step: hold (no new model or tool call) or go on; sent when the agent's hold changes,
 * and by an agent with a budget in answer to each round's report.
 */
export const stepHoldSignal = defineSignal<[StepHold]>('stepHold');

/**
 * Step → nested agent: the budget it may spend now (its own total, tokens and dollars); sent
 * when the tree's budget was raised while it runs. Only nested agents take it. Payload:
 * budgetLeftSchema (budget-left.ts).
 */
export const nestedBudgetSignal = defineSignal<[BudgetLeft]>('nestedBudget');

/** Agent → step: the answer to one of its interactions; the step checks it against the kind it asked for. */
export const stepAnswerSchema = z.object({
  requestId: id,
  interactionId: id,
  answer: z.custom<Answer>(isObject, { error: 'must be an object' }),
  by: z.string().optional(),
  /** Set when the interaction expired and the policy fails the step. */
  expired: z.literal('fail').optional(),
});
export type StepAnswer = z.infer<typeof stepAnswerSchema>;

/** Agent → step: the answer to a step's interaction. */
export const stepAnswerSignal = defineSignal<[StepAnswer]>('stepAnswer');
