/**
 * The agent state returned by the `state` query (docs/contracts.md#agent-state): plain JSON only, so it
 * survives queries and continue-as-new. The functions here mutate a state object the workflow
 * owns; they are pure apart from that and unit-tested without Temporal.
 */
import type { Answer, Interaction, InteractionSpec } from '../interactions/interaction-types';
import type { z } from 'zod';
import { DEMO_MODEL } from '../llm/llm-types';
import type { ToolCallRecord } from '../tools/tool-types';
import { zeroUsage } from '../llm/usage';
import { logDecisionEvent } from './decision-log';
import type { agentEventSchema, agentPhaseSchema, agentStateSchema } from '../state/agent-state-schema';
import type { stepRunSchema } from '../state/step-run-schema';

/** Every phase an agent can be in, in lifecycle order; the terminal ones; the test for them. */
export { AGENT_PHASES, TERMINAL_PHASES, isTerminalPhase, type TerminalPhase } from '../state/agent-phases';

/** The phase an agent is in. */
export type AgentPhase = z.infer<typeof agentPhaseSchema>;

/** One step run. */
export type StepRun = z.infer<typeof stepRunSchema>;

/** Every type of timeline event. */
export type AgentEventType = z.infer<typeof agentEventSchema>['type'];

/** A timeline entry; `seq` only grows, so a UI asks for `afterSeq` to get what is new. */
export type AgentEvent = z.infer<typeof agentEventSchema>;

/** The agent state, as its zod schema (model/state/agent-state-schema.ts) describes it. */
export type AgentState = z.infer<typeof agentStateSchema>;

/** How many events the timeline keeps. */
export const MAX_EVENTS = 200;

/** How many tool call records a step run keeps: the state (and a continue-as-new) stay small. */
export const MAX_TOOL_CALLS_KEPT = 50;

/** Records a step's tool call, dropping the oldest beyond MAX_TOOL_CALLS_KEPT. */
export function addToolCall(step: StepRun, call: ToolCallRecord): void {
  step.toolCalls.push(call);
  step.toolCallCount = (step.toolCallCount ?? step.toolCalls.length - 1) + 1;
  if (step.toolCalls.length > MAX_TOOL_CALLS_KEPT)
    step.toolCalls.splice(0, step.toolCalls.length - MAX_TOOL_CALLS_KEPT);
}

/** A fresh state for `task`. */
export function createAgentState(task: string): AgentState {
  return {
    phase: 'planning',
    task,
    revision: 0,
    steps: [],
    interactions: [],
    usage: zeroUsage(),
    events: [],
    eventSeq: 0,
    asks: 0,
    replans: 0,
    decisions: [],
  };
}

/** Records which model answers, and labels the demo model. */
export function noteModel(state: AgentState, model: string): void {
  if (state.model !== undefined) return;
  state.model = model;
  state.demo = model === DEMO_MODEL;
}

/** Records whether the latest model call streamed (absent from calls recorded before streaming). */
export function noteStreaming(state: AgentState, streamed: boolean | undefined): void {
  if (streamed !== undefined) state.streaming = streamed;
}

/** Appends a timeline event, dropping the oldest beyond MAX_EVENTS. */
export function addEvent(state: AgentState, at: number, event: Omit<AgentEvent, 'seq' | 'at'>): void {
  state.eventSeq += 1;
  const added = { seq: state.eventSeq, at, ...event };
  state.events.push(added);
  logDecisionEvent(state, added);
  if (state.events.length > MAX_EVENTS) state.events.splice(0, state.events.length - MAX_EVENTS);
}

/** Opens an interaction with the next id (`i1`, `i2`, ...). */
export function openInteraction(state: AgentState, at: number, spec: InteractionSpec, stepId?: string): Interaction {
  const interaction: Interaction = {
    ...spec,
    id: `i${state.interactions.length + 1}`,
    status: 'open',
    createdAt: at,
    ...(stepId !== undefined ? { stepId } : {}),
  };
  state.interactions.push(interaction);
  addEvent(state, at, {
    type: 'interaction.opened',
    message: `${spec.kind}: ${spec.prompt}`,
    interactionId: interaction.id,
    ...(stepId !== undefined ? { stepId } : {}),
  });
  return interaction;
}

/** Records an accepted answer as the audit record and closes the interaction. */
export function recordAnswer(
  state: AgentState,
  at: number,
  interaction: Interaction,
  answer: Answer,
  by?: string,
  actor?: Interaction['actor'],
): void {
  interaction.status = 'answered';
  interaction.answer = answer;
  interaction.answeredAt = at;
  if (by !== undefined) interaction.by = by;
  if (actor !== undefined) interaction.actor = actor;
  addEvent(state, at, {
    type: 'interaction.answered',
    message: `${interaction.kind} answered${by ? ` by ${by}` : ''}`,
    interactionId: interaction.id,
    ...(interaction.stepId !== undefined ? { stepId: interaction.stepId } : {}),
  });
}

/** The open interactions. */
export function openInteractions(state: AgentState): Interaction[] {
  return state.interactions.filter((i) => i.status === 'open');
}

/** The state with only events after `afterSeq` (the timeline cursor). */
export function stateSince(state: AgentState, afterSeq?: number): AgentState {
  if (afterSeq === undefined) return state;
  return { ...state, events: state.events.filter((e) => e.seq > afterSeq) };
}
