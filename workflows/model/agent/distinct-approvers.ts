/**
 * Who counts as one more person for an approval that needs several (`approvers` n, an approval
 * policy's `@approvers`; docs/operations.md#two-person-approvals). Credentials are not people:
 * one person may hold a token and sign in with the provider too, and some credentials name
 * nobody. So an approval counts only when it names a person Cairn identified, from the same
 * sign-in realm as the interaction's first approval (and, as before, not one who already approved):
 *
 * - a realm is where ids come from: the tokens file (`token`: its `principal`) or the OpenID
 *   Connect provider (`oidc-session`, `oidc-bearer`: its `sub`). Cairn cannot tell whether a
 *   token's principal and a provider's subject are one person, so it does not mix them;
 * - the shared CAIRN_API_TOKEN (`shared-token`) names no one person; with authentication off
 *   (`none`) nobody is identified (the id is a free-text `by`); an answer straight to Temporal
 *   carries no actor Cairn vouched for (`temporal-signal`). None of these counts;
 * - an actor recorded by a server before `authenticatedBy` existed counts in a realm of its own.
 *
 * Pure: the answer update's validator applies it (validators do not run on replay, so no patch),
 * and the answer signal under the patch PATCHES.approvalPeople.
 */
import type { AnswerCheck, AnswerInput, Interaction } from '../interactions/interaction-types';
import type { z } from 'zod';
import { signInRealm, type actorSchema } from '../interactions/answer-input-schema';

/** Who acted (contract/messages.ts's `Actor`, from its schema here: this module sits below the contract). */
type Actor = z.infer<typeof actorSchema>;

type Approval = Extract<Interaction, { kind: 'tool.approval' }>;

/** How a personal sign-in's realm is named in a refusal. */
const REALM_LABELS = { token: 'API tokens', oidc: 'the OpenID Connect provider' } as const;

/** A realm's name, or why the actor is no identified person. */
type Realm = { realm: string; label: string } | { nobody: string };

function realmOf(actor: Actor | undefined): Realm {
  if (actor === undefined || actor.method === 'temporal-signal')
    return { nobody: 'an answer sent straight to Temporal names nobody Cairn identified' };
  switch (actor.authenticatedBy) {
    case 'shared-token':
      return { nobody: 'the shared CAIRN_API_TOKEN names no one person' };
    case 'none':
      return { nobody: 'with authentication off nobody is identified' };
    case 'token':
    case 'oidc-session':
    case 'oidc-bearer': {
      const realm = signInRealm(actor.authenticatedBy);
      return { realm, label: REALM_LABELS[realm] };
    }
    case undefined:
      return { realm: 'unstated', label: 'a server that did not say how it authenticated' };
  }
}

const refusal = (error: string): AnswerCheck => ({ ok: false, code: 'SAME_APPROVER', field: 'interactionId', error });

/**
 * Whether `input` approves an approval that needs several people: the only answers this rule
 * concerns (a rejection closes the approval, whoever gives it).
 */
export function approvesForSeveral(interaction: Interaction | undefined, input: AnswerInput): interaction is Approval {
  if (interaction?.kind !== 'tool.approval' || (interaction.approvers ?? 1) <= 1) return false;
  const answer: unknown = input.answer;
  return typeof answer === 'object' && answer !== null && 'decision' in answer && answer.decision === 'approve';
}

/**
 * The refusal of an approval that cannot count as another person, or undefined when it counts
 * (the same principal approving twice is the desk's older check, which runs first).
 */
export function notAnotherPerson(interaction: Approval, input: AnswerInput): AnswerCheck | undefined {
  const needed = `the ${interaction.approvers ?? 1} different people ${interaction.id} needs`;
  const realm = realmOf(input.actor);
  if ('nobody' in realm) return refusal(`${realm.nobody}, so this approval cannot be one of ${needed}`);
  const approvals = interaction.approvals ?? [];
  const first = approvals[0] ? realmOf(approvals[0].actor) : undefined;
  if (first && 'realm' in first && first.realm !== realm.realm) {
    return refusal(
      `${interaction.id} was first approved by someone signed in through ${first.label}; every approval of it must come ` +
        `from there too (Cairn cannot tell whether a principal of ${realm.label} is the same person)`,
    );
  }
  // The same principal twice is refused before this, by the desk's own check (sameApprover).
  return undefined;
}
