/**
 * Approvals reused across a thread's turns: a write a person approved in an earlier turn, for the
 * same digest (the call's tool and arguments, approval-digest.ts) under the same policy outcome
 * (the role an approver needs and how many must approve), is not asked again in a later turn —
 * the call runs, and its record says from which interaction the approval came. The thread hands
 * a turn the earlier turns' approvals in its input (`context.approvals`), the agent hands them
 * to its steps. An approval stands only for a turn of the same sender as the turn that asked (the
 * same principal id, signed in in the same realm), and only for a call that may run twice
 * (`idempotent`): another sender is asked as ever, and a call that is not idempotent always is.
 * Pure: runs in the workflow sandbox.
 */
import { z } from 'zod';
import { PERSONAL_SIGN_INS, signInRealm } from '../interactions/answer-input-schema';
import type { Interaction } from '../interactions/interaction-types';
import { principalSchema, type Principal } from '../principal';

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
  /** Who sent the turn that asked (its principal's id and sign-in); absent: a turn run under nobody. */
  sender: principalSchema.pick({ id: true, authenticatedBy: true }).optional(),
});
/** An approval a person gave in an earlier turn. */
export type EarlierApproval = z.infer<typeof earlierApprovalSchema>;

/** Who sent a turn, as an approval keeps it. */
export type Sender = NonNullable<EarlierApproval['sender']>;

/** Where a sender's id comes from: a personal sign-in's realm, else how they came (shared token, none, unstated). */
function realmOf(by: Principal['authenticatedBy']): string {
  const personal = PERSONAL_SIGN_INS.find((p) => p === by);
  return personal ? signInRealm(personal) : (by ?? 'unstated');
}

/** Whether two turns have one sender: both under nobody, or the same id in the same realm. */
export function sameSender(a: Sender | undefined, b: Sender | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.id === b.id && realmOf(a.authenticatedBy) === realmOf(b.authenticatedBy);
}

/** The sender an approval keeps for a turn run under `principal`. */
export function senderOf(principal: Principal | undefined): Sender | undefined {
  if (!principal) return undefined;
  return { id: principal.id, ...(principal.authenticatedBy ? { authenticatedBy: principal.authenticatedBy } : {}) };
}

/**
 * The earlier approval that stands for a call of `digest` whose policy outcome is `role` and
 * `approvers`, in a turn sent by `sender`: one of the same sender's turns. None for a call that
 * is not idempotent: running it again is not the call the person approved.
 */
export function matchingApproval(
  approvals: readonly EarlierApproval[] | undefined,
  digest: string,
  outcome: { role?: string | undefined; approvers?: number | undefined },
  call: { sender: Principal | undefined; idempotent: boolean },
): EarlierApproval | undefined {
  if (!call.idempotent) return undefined;
  const sender = senderOf(call.sender);
  return approvals?.find(
    (a) =>
      a.digest === digest &&
      a.role === outcome.role &&
      a.approvers === (outcome.approvers ?? 1) &&
      sameSender(a.sender, sender),
  );
}

/** The tool calls people approved among `interactions` of agent `agentId` (sent by `principal`), newest last, bounded. */
export function approvalsGiven(
  agentId: string,
  interactions: readonly Interaction[],
  principal?: Principal,
): EarlierApproval[] {
  const sender = senderOf(principal);
  const given = interactions.flatMap((i): EarlierApproval[] => {
    if (i.kind !== 'tool.approval' || i.status !== 'answered') return [];
    if (!(i.answer && 'decision' in i.answer && i.answer.decision === 'approve')) return [];
    const approvers = i.approvers ?? 1;
    const by = i.approvals?.length ? i.approvals.map((a) => a.actor.id) : [i.actor?.id ?? i.by ?? 'unknown'];
    const role = i.role !== undefined ? { role: i.role } : {};
    const from = sender ? { sender } : {};
    return [
      {
        agentId,
        interactionId: i.id,
        tool: i.tool,
        digest: i.digest,
        ...role,
        approvers,
        by: by.slice(0, 10),
        ...from,
      },
    ];
  });
  return given.slice(-MAX_EARLIER_APPROVALS);
}
