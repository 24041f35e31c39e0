/**
 * Approvals reused across a thread's turns: a write a person approved in an earlier turn, for the
 * same digest (the call's tool and arguments, approval-digest.ts) under the same policy outcome
 * (the role an approver needs and how many must approve), is not asked again in a later turn —
 * the call runs, and its record says from which interaction the approval came. The thread hands
 * a turn the earlier turns' approvals in its input (`context.approvals`), the agent hands them
 * to its steps. Pure: runs in the workflow sandbox.
 */
import { z } from 'zod';
import type { Interaction } from '../interactions/interaction-types';

/** Most earlier approvals one turn is given (the newest are kept). */
export const MAX_EARLIER_APPROVALS = 50;

/** An approval a person gave in an earlier turn: where, for which call, under which policy outcome, by whom. */
export const earlierApprovalSchema = z.object({
  /** The agent (a thread's turn) that asked. */
  agentId: z.string().min(1).max(300),
  interactionId: z.string().min(1).max(100),
  tool: z.string().min(1).max(100),
  digest: z.string().min(1).max(200),
  /** The role an approver needed (the policy's `@role`); absent: none beyond the default. */
  role: z.string().max(100).optional(),
  /** How many distinct people approved (the policy's `@approvers`). */
  approvers: z.number().int().min(1).max(10),
  /** Who approved. */
  by: z.array(z.string().max(200)).max(10),
});
/** An approval a person gave in an earlier turn. */
export type EarlierApproval = z.infer<typeof earlierApprovalSchema>;

/** The earlier approval that stands for a call of `digest` whose policy outcome is `role` and `approvers`. */
export function matchingApproval(
  approvals: readonly EarlierApproval[] | undefined,
  digest: string,
  outcome: { role?: string | undefined; approvers?: number | undefined },
): EarlierApproval | undefined {
  return approvals?.find(
    (a) => a.digest === digest && a.role === outcome.role && a.approvers === (outcome.approvers ?? 1),
  );
}

/** The tool calls people approved among `interactions` of agent `agentId`, newest last, bounded. */
export function approvalsGiven(agentId: string, interactions: readonly Interaction[]): EarlierApproval[] {
  const given = interactions.flatMap((i): EarlierApproval[] => {
    if (i.kind !== 'tool.approval' || i.status !== 'answered') return [];
    if (!(i.answer && 'decision' in i.answer && i.answer.decision === 'approve')) return [];
    const approvers = i.approvers ?? 1;
    const by = i.approvals?.length ? i.approvals.map((a) => a.actor.id) : [i.actor?.id ?? i.by ?? 'unknown'];
    const role = i.role !== undefined ? { role: i.role } : {};
    return [{ agentId, interactionId: i.id, tool: i.tool, digest: i.digest, ...role, approvers, by: by.slice(0, 10) }];
  });
  return given.slice(-MAX_EARLIER_APPROVALS);
}
