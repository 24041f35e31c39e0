/**
 * The decision log: what the audit lists besides answers — pauses, resumes, the end and every
 * approval policy decision — kept in the state apart from the timeline, whose window of
 * MAX_EVENTS drops old events, and from a step's recent tool calls, of which only the last
 * MAX_TOOL_CALLS_KEPT stay. It is bounded too (MAX_DECISIONS_KEPT, far above what days of work
 * make), and says how many it dropped, so an audit never silently loses a decision. Pure: state
 * only, no command, so runs recorded before it replay unchanged.
 */
import type { z } from 'zod';
import type { agentEventSchema, agentStateSchema, decisionRecordSchema } from '../state/agent-state-schema';
import type { ToolCallRecord } from '../tools/tool-types';

type AgentState = z.infer<typeof agentStateSchema>;
type AgentEvent = z.infer<typeof agentEventSchema>;

/** One kept decision. */
export type DecisionRecord = z.infer<typeof decisionRecordSchema>;

/** How many decisions the state keeps. */
export const MAX_DECISIONS_KEPT = 1000;

/**
 * How much of a decision's text it keeps (a pause's free-text reason may be long; the timeline
 * has it whole): with the actor, a record stays under 1 KiB, the log under 1 MiB.
 */
export const MAX_DECISION_TEXT = 200;

/** The timeline events that are decisions, and the kind each is kept as. */
const DECISION_EVENTS: Partial<Record<AgentEvent['type'], DecisionRecord['kind']>> = {
  'agent.paused': 'pause',
  'agent.resumed': 'resume',
  'agent.finished': 'end',
};

/** Keeps a timeline event that records a decision (a pause, a resume, the end). */
export function logDecisionEvent(state: AgentState, event: AgentEvent): void {
  const kind = DECISION_EVENTS[event.type];
  if (!kind) return;
  keep(state, { at: event.at, what: event.message, kind, ...(event.actor ? { actor: event.actor } : {}) });
}

/** Keeps the approval policy's decision on a step's tool call, when a policy decided it, and an approval it reused. */
export function logPolicyDecision(state: AgentState, stepId: string, call: ToolCallRecord): void {
  const { policy, approvalReused: reused } = call;
  if (reused)
    keep(state, {
      at: reused.at,
      what: `tool.approval of ${call.name} reused from ${reused.interactionId} of ${reused.agentId} (approved by ${reused.by.join(', ')})`,
      kind: 'approval.reused',
      decision: 'approve',
      tool: call.name,
      stepId,
      interactionId: reused.interactionId,
    });
  if (!policy) return;
  keep(state, {
    at: policy.at,
    what: `policy ${policy.decision} ${call.name} (rule ${policy.rule})`,
    kind: 'policy',
    decision: policy.decision,
    rule: policy.rule,
    tool: call.name,
    stepId,
  });
}

/** Adds a record to a state that keeps the log (states of runs begun before it do not). */
function keep(state: AgentState, record: DecisionRecord): void {
  const { decisions } = state;
  if (!decisions) return;
  const what = record.what.length > MAX_DECISION_TEXT ? `${record.what.slice(0, MAX_DECISION_TEXT - 1)}…` : record.what;
  decisions.push({ ...record, what });
  const over = decisions.length - MAX_DECISIONS_KEPT;
  if (over > 0) {
    decisions.splice(0, over);
    state.decisionsDropped = (state.decisionsDropped ?? 0) + over;
  }
}
