/**
 * Whether an answer may be taken, beyond its interaction's own rules (validate-answer.ts): the
 * role it needs, and for an approval several people must give, that this is another person
 * (distinct-approvers.ts) who has not approved yet. Pure, given the agent's state: the desk's
 * validator, update handler and signal handler all decide with it.
 */
import { patched } from '@temporalio/workflow';
import { missingRole } from '../model/interactions/answer-roles';
import type { AnswerCheck, AnswerInput, Interaction } from '../model/interactions/interaction-types';
import { validateAnswer } from '../model/interactions/validate-answer';
import { PATCHES } from '../base/patches';
import { checkEditedPlanValue, checkPlanValue } from '../model/plan/check-plan';
import type { PlanCheck } from '../model/plan/plan-types';
import type { ReusableStep } from '../model/plan/plan-reuse';
import type { AgentState } from '../model/agent/agent-state';
import { approvesForSeveral, notAnotherPerson } from '../model/agent/distinct-approvers';

/** Checks an edited plan, which may adopt the agent's reusable steps (plan-reuse.ts). */
export type PlanChecker = (value: unknown, reusable?: readonly ReusableStep[]) => PlanCheck;

/**
 * Checks an answer against its interaction and the answering rules. `planCheck` checks an
 * edited plan: strictly (unknown keys refused) where a new answer comes in; as the plan schema
 * alone when recording one that already passed, so that histories recorded before unknown
 * keys were refused, which took such edits, replay as they ran.
 */
export function checkAnswer(
  state: AgentState,
  input: AnswerInput,
  planCheck: (value: unknown) => PlanCheck = checkPlanValue,
): AnswerCheck {
  const interaction = state.interactions.find((i) => i.id === input.interactionId);
  const check = validateAnswer(interaction, input, planCheck);
  if (!check.ok || !interaction) return check;
  const rejecting =
    interaction.kind === 'tool.approval' && 'decision' in check.answer && check.answer.decision === 'reject';
  const missing = missingRole(interaction, input, rejecting);
  if (missing !== undefined) {
    const error = `answering ${interaction.id} (${interaction.kind}) needs the role ${missing}`;
    return { ok: false, code: 'ROLE_REQUIRED', field: 'interactionId', error };
  }
  if (interaction.kind !== 'tool.approval' || rejecting) return check;
  return sameApprover(interaction, input) ?? check;
}

/** For an approval several people must give: the refusal of one that is no further person (distinct-approvers.ts). */
export function refusedAsPerson(state: AgentState, input: AnswerInput): AnswerCheck | undefined {
  const interaction = state.interactions.find((i) => i.id === input.interactionId);
  return approvesForSeveral(interaction, input) ? notAnotherPerson(interaction, input) : undefined;
}

/**
 * An edited plan that came by signal: refused for an unknown key as the update's validator
 * refuses it — behind a replay gate, since runs before it took such an edit (the key dropped).
 * The gate is asked only when the two checks disagree, so no other run records its marker.
 */
export function signalPlanCheck(value: unknown, reusable?: readonly ReusableStep[]): PlanCheck {
  const strict = checkEditedPlanValue(value, reusable);
  if (strict.ok || strict.field === undefined) return strict;
  const lenient = checkPlanValue(value, reusable);
  if (!lenient.ok) return strict;
  return patched(PATCHES.strictPlanEdit) ? strict : lenient;
}

/** For an approval that needs several people: refused when this one already approved. */
function sameApprover(
  interaction: Extract<Interaction, { kind: 'tool.approval' }>,
  input: AnswerInput,
): AnswerCheck | undefined {
  const who = input.actor?.id ?? input.by ?? 'unknown';
  if ((interaction.approvals ?? []).some((a) => a.actor.id === who))
    return {
      ok: false,
      code: 'SAME_APPROVER',
      field: 'interactionId',
      error: `${who} already approved ${interaction.id}; it needs ${interaction.approvers ?? 1} different people`,
    };
  return undefined;
}
