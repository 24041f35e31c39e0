/**
 * The audit of an agent (docs/operations.md#who-answered-the-audit-record): every decision on
 * it, oldest first, with who and when — answered and expired interactions (kind, decision, `by`
 * and the authenticated actor with its method) and the timeline's pauses, resumes and end (with
 * the actor who paused, resumed or cancelled through Cairn's HTTP API). Read
 * from the agent's state; served by `GET /api/agents/:id/audit` and printed by `cairn audit`.
 */
import { z } from 'zod';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { actorSchema } from '../../workflows/model/interactions/answer-input-schema';

/** One audit entry. */
export const auditEntrySchema = z.object({
  at: z.number(),
  what: z.string(),
  interactionId: z.string().optional(),
  kind: z.string().optional(),
  decision: z.string().optional(),
  by: z.string().optional(),
  actor: actorSchema.optional(),
  /** The approval policy's rule behind a policy decision or an approval it asked for. */
  rule: z.string().optional(),
  /** The tool of a policy decision. */
  tool: z.string().optional(),
  stepId: z.string().optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The timeline events that record a decision (the rest is progress). */
const DECISION_EVENTS = new Set(['agent.paused', 'agent.resumed', 'agent.finished']);

/** The audit entries of a state, oldest first. */
export function auditOf(state: AgentState): AuditEntry[] {
  const expiredAt = expiryTimes(state);
  const answers = state.interactions.flatMap((i) => {
    if (i.status === 'open') return [];
    const answer: unknown = i.answer;
    const decision =
      typeof answer === 'object' && answer !== null && 'decision' in answer ? String(answer.decision) : undefined;
    const at = i.answeredAt ?? expiredAt.get(i.id) ?? i.expiresAt ?? i.createdAt;
    return [
      {
        at,
        what: i.status === 'answered' ? `${i.kind} answered` : `${i.kind} expired`,
        interactionId: i.id,
        kind: i.kind,
        ...(decision !== undefined ? { decision } : {}),
        ...(i.by !== undefined ? { by: i.by } : {}),
        ...(i.actor !== undefined ? { actor: i.actor } : {}),
        ...(i.kind === 'tool.approval' && i.rule !== undefined ? { rule: i.rule } : {}),
      },
    ];
  });
  // The decision log, where the run keeps one; a state of a run begun before it still has its
  // recent decisions in the timeline and the steps' recent calls.
  const decisions = state.decisions
    ? keptDecisions(state.decisions, state.decisionsDropped ?? 0)
    : recentDecisions(state);
  return [...answers, ...approvalsOf(state), ...decisions].sort((a, b) => a.at - b.at);
}

/** The decision log's entries, after a note of how many older ones it dropped (if any). */
function keptDecisions(decisions: NonNullable<AgentState['decisions']>, dropped: number): AuditEntry[] {
  const entries = decisions.map((d): AuditEntry => {
    // A pause, resume or cancellation through Cairn's HTTP API names its actor.
    const who = d.actor ? { by: d.actor.id, actor: d.actor } : {};
    // An approval reused from an earlier turn of the thread names the interaction that gave it.
    if (d.kind === 'approval.reused')
      return { at: d.at, what: d.what, kind: d.kind, by: 'reused', ...policyFields(d), interactionId: d.interactionId };
    if (d.kind !== 'policy') return { at: d.at, what: d.what, ...who };
    return { at: d.at, what: d.what, kind: 'policy', by: 'policy', ...policyFields(d) };
  });
  if (dropped === 0) return entries;
  const at = decisions[0]?.at ?? 0;
  const what = `${dropped} earlier decisions (pauses, resumes, policy decisions) were not kept; the workflow history has them`;
  return [{ at, what, kind: 'dropped' }, ...entries];
}

const policyFields = (d: { decision?: string; rule?: string; tool?: string; stepId?: string }) => ({
  ...(d.decision !== undefined ? { decision: d.decision } : {}),
  ...(d.rule !== undefined ? { rule: d.rule } : {}),
  ...(d.tool !== undefined ? { tool: d.tool } : {}),
  ...(d.stepId !== undefined ? { stepId: d.stepId } : {}),
});

/** Before the decision log: the pauses, resumes and end still in the timeline, and the policy decisions on recent calls. */
function recentDecisions(state: AgentState): AuditEntry[] {
  const events = state.events
    .filter((e) => DECISION_EVENTS.has(e.type))
    .map((e) => ({ at: e.at, what: e.message, ...(e.actor ? { by: e.actor.id, actor: e.actor } : {}) }));
  return [...policyDecisionsOf(state), ...events];
}

/**
 * When each interaction expired, from its `interaction.expired` event: one the agent's end
 * closed (a stop, a cancellation, a failure) has no expiry time of its own. Events older than
 * the timeline's window are gone; those fall back to the interaction's own times.
 */
function expiryTimes(state: AgentState): Map<string, number> {
  const times = new Map<string, number>();
  for (const e of state.events) {
    if (e.type === 'interaction.expired' && e.interactionId !== undefined) times.set(e.interactionId, e.at);
  }
  return times;
}

/** Each approval of an approval that needed several people (the last one is also the answer). */
function approvalsOf(state: AgentState): AuditEntry[] {
  return state.interactions.flatMap((i) =>
    i.kind === 'tool.approval'
      ? (i.approvals ?? []).map((a) => ({
          at: a.at,
          what: `tool.approval approved (${a.actor.id})`,
          interactionId: i.id,
          kind: i.kind,
          decision: 'approve',
          by: a.actor.id,
          actor: a.actor,
          ...(i.rule !== undefined ? { rule: i.rule } : {}),
        }))
      : [],
  );
}

/** The approval policy's decision on each call the state still lists (the most recent per step). */
function policyDecisionsOf(state: AgentState): AuditEntry[] {
  return state.steps.flatMap((step) =>
    step.toolCalls.flatMap((call) =>
      call.policy
        ? [
            {
              at: call.policy.at,
              what: `policy ${call.policy.decision} ${call.name} (rule ${call.policy.rule})`,
              kind: 'policy',
              decision: call.policy.decision,
              by: 'policy',
              rule: call.policy.rule,
              tool: call.name,
              stepId: step.id,
            },
          ]
        : [],
    ),
  );
}
