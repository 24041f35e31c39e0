/**
 * Every Temporal message of Cairn, defined once (docs/contracts.md#messages). Clients, the CLI, the web app and
 * tests use these objects, never string literals.
 *
 * Public: signal and update `answer`, query `state`, signals and updates `pause` and `resume`,
 * update `recordCancel`.
 * Internal: `conversation` (read by the LLM activity so conversations never travel as activity
 * input) and the step ↔ agent signals that route a step's questions through
 * the agent, which owns every interaction.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import type { AgentState } from './agent/agent-state';
import type { BudgetLeft } from './budget-left';
import type { actorSchema } from './interactions/answer-input-schema';
import type { AnswerInput, Answer, InteractionSpec } from './interactions/interaction-types';
import type { LlmMessage, TokenUsage } from './llm-types';
import type { ToolCallRecord } from './tools/tool-types';

/** Answer an open interaction; fire-and-forget (what the Temporal UI can send). */
export const answerSignal = defineSignal<[AnswerInput]>('answer');
/** Answer an open interaction and learn at once whether it was accepted. */
export const answerUpdate = defineUpdate<AnswerAccepted, [AnswerInput]>('answer');
/** The whole agent state; pass `afterSeq` to get only newer timeline events. */
export const stateQuery = defineQuery<AgentState, [StateQueryArgs?]>('state');

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

/** Who acted, as Cairn's HTTP API authenticated them (id, name, roles, method). */
export type Actor = z.infer<typeof actorSchema>;

/** Who pauses or resumes, and why (both free text, kept on the timeline); `actor` only by update. */
export interface HoldRequest {
  by?: string;
  reason?: string;
  actor?: Actor;
}

/** Who cancels, and why (as for a pause); the audit keeps it with the agent's end. */
export type CancelRequest = HoldRequest;

export interface AnswerAccepted {
  interactionId: string;
  answer: Answer;
}

export interface StateQueryArgs {
  afterSeq?: number;
}

/** The first `length` messages of the conversation `key` of a workflow. */
export const conversationQuery = defineQuery<LlmMessage[], [ConversationQueryArgs]>('conversation');

export interface ConversationQueryArgs {
  key: string;
  length: number;
}

/** Step → agent: open an interaction for this step. */
export const stepInteractionSignal = defineSignal<[StepInteractionRequest]>('stepInteraction');
/** Step → agent: a round finished (usage, tool calls) — live progress. */
export const stepProgressSignal = defineSignal<[StepProgress]>('stepProgress');
/**
 * Agent → step: hold (no new model or tool call) or go on; sent when the agent's hold changes,
 * and by an agent with a budget in answer to each round's report.
 */
export const stepHoldSignal = defineSignal<[StepHold]>('stepHold');
/**
 * Step → nested agent: the budget it may spend now (its own total, tokens and dollars); sent
 * when the tree's budget was raised while it runs. Only nested agents take it.
 */
export const nestedBudgetSignal = defineSignal<[BudgetLeft]>('nestedBudget');
/** Agent → step: the answer to a step's interaction. */
export const stepAnswerSignal = defineSignal<[StepAnswer]>('stepAnswer');

export interface StepInteractionRequest {
  stepId: string;
  /** Unique within the step run; echoed in the answer. */
  requestId: string;
  spec: InteractionSpec;
}

export interface StepProgress {
  stepId: string;
  round: number;
  /** The model that answered this round. */
  model?: string;
  usage: TokenUsage;
  toolCalls: ToolCallRecord[];
  /**
   * What the agent's timeline should hear of this round: its model call (a cut reply, a
   * capability step down) and its loop guards (calls refused, approvals not asked again).
   */
  notices?: StepNotice[];
  /** The last report of a cancelled step, sent before it closes: not acknowledged. */
  cancelled?: true;
  /** With `cancelled`: what the step had done (its latest model text and tool results). */
  partial?: string;
}

/** A timeline event a step's round asks for. */
export interface StepNotice {
  type: 'llm.cut' | 'llm.notice' | 'step.guard';
  message: string;
}

export interface StepHold {
  held: boolean;
  /** Set when this answers the step's report of that round (a metered agent acknowledges each). */
  round?: number;
  /** What the tree's budget has left as the agent counts it now (a metered agent; absent before nested budgets). */
  left?: BudgetLeft;
}

export interface StepAnswer {
  requestId: string;
  interactionId: string;
  answer: Answer;
  by?: string;
  /** Set when the interaction expired and the policy fails the step. */
  expired?: 'fail';
}
