/**
 * Who may answer what: the role each kind of interaction needs (docs/contracts.md#agent-input,
 * `answerRoles`). Operators steer an agent (its plan, its questions, its budget, its deadline,
 * a failed step); approvers own its side effects. So a starter may let operators answer
 * everything but tool approvals, which need `approver` or `admin` whatever the starter says, and
 * an approval policy's `@role` may name a stricter role for one approval. `admin` answers
 * anything. Pure: the workflow (authoritative), the HTTP schemas and the tests share it.
 */
import type { z } from 'zod';
import type { Interaction, InteractionKind } from './interaction-types';
import { ROLE_FAMILIES, type answerRolesSchema } from './kinds/registry';
import { PERSONAL_SIGN_INS, signInRealm } from './answer-input-schema';
import type { Principal } from '../principal';

export { answerRolesSchema } from './kinds/registry';

/** The role an answer needs when nothing names one: the answers route's historic `approver`. */
export const DEFAULT_ANSWER_ROLE = 'approver';

/** The agent input's `answerRoles`: a role per family of interactions (kinds/registry.ts). */
export type AnswerRoles = z.infer<typeof answerRolesSchema>;

/** The role an interaction of `kind` opens with, when the agent's `answerRoles` name one. */
export function roleFor(kind: InteractionKind, roles: AnswerRoles | undefined): string | undefined {
  return roles?.[ROLE_FAMILIES[kind]];
}

/** A sign-in that names one person, or undefined (the shared token, auth off, not kept). */
function personal(by: string | undefined): (typeof PERSONAL_SIGN_INS)[number] | undefined {
  return PERSONAL_SIGN_INS.find((p) => p === by);
}

/**
 * Who answers a newly opened interaction: the role it needs (its own, else the agent's
 * `answerRoles` for its kind) and, for a question (`ask.*`) with no role named, whom it is asked
 * of — the person who started the agent (its `principal`, signed in as one person), who may
 * answer it without the default role: an answer to a question says no more than the task they
 * wrote.
 */
export function whoAnswers(
  interaction: Pick<Interaction, 'kind' | 'role'>,
  agent: { answerRoles?: AnswerRoles | undefined; principal?: Principal | undefined },
): Pick<Interaction, 'role' | 'askedOf'> {
  const role = interaction.role ?? roleFor(interaction.kind, agent.answerRoles);
  if (role !== undefined) return { role };
  const starter = agent.principal;
  const by = personal(starter?.authenticatedBy);
  return ROLE_FAMILIES[interaction.kind] === 'ask' && starter && by
    ? { askedOf: { id: starter.id, authenticatedBy: by } }
    : {};
}

/** Who answers: Cairn's vouched-for identity and roles, or none for an answer sent straight to Temporal. */
interface Answerer {
  actor?: { id: string; roles: readonly string[]; method: string; authenticatedBy?: string | undefined };
}

/** The answer comes from the person the question was asked of: the same id, signed in as one person in the same realm. */
function fromAskedOf(interaction: Interaction, input: Answerer): boolean {
  const { askedOf } = interaction;
  const { actor } = input;
  const by = personal(actor?.authenticatedBy);
  return (
    askedOf !== undefined &&
    actor !== undefined &&
    by !== undefined &&
    actor.method !== 'temporal-signal' &&
    actor.id === askedOf.id &&
    signInRealm(by) === signInRealm(askedOf.authenticatedBy)
  );
}

/**
 * The role this answer needs that the answerer lacks, or undefined when it may be given. An
 * answer through Cairn (with an actor) needs the interaction's role, else `approver`; one sent
 * straight to Temporal has no roles Cairn vouched for, so it can meet no named role but is not
 * held to the default (that path is locked down by Temporal's own authorization). A question
 * asked of its agent's starter (`askedOf`) needs no role from them. Approving a
 * tool call through Cairn always needs `approver` too; rejecting one needs only the default:
 * anyone who may approve at all may say no.
 */
export function missingRole(interaction: Interaction, input: Answerer, rejecting: boolean): string | undefined {
  const roles = input.actor?.roles ?? [];
  const lacks = (role: string) => !roles.includes(role) && !roles.includes('admin');
  // Approving a side effect through Cairn needs `approver` whatever role a policy's `@role`
  // names besides it (an `@role("operator")` approval needs both, as it always did).
  if (interaction.kind === 'tool.approval' && !rejecting && input.actor && lacks(DEFAULT_ANSWER_ROLE))
    return DEFAULT_ANSWER_ROLE;
  const named = rejecting ? undefined : interaction.role;
  if (named === undefined && fromAskedOf(interaction, input)) return undefined;
  const needed = named ?? (input.actor ? DEFAULT_ANSWER_ROLE : undefined);
  return needed !== undefined && lacks(needed) ? needed : undefined;
}
