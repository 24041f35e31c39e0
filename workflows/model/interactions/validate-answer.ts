/**
 * Checks a human's answer (the `answer` signal and update) against the interaction it answers and
 * returns it normalised and typed — or a coded rejection: `NOT_OPEN` or `INVALID_ANSWER`, the
 * offending field's path (`interactionId`, `answer.values.pages`, …) and the broken rule as
 * `path: message`, so the update validator, the HTTP API and the CLI can show it as it is and act
 * on the code and field. An answer that is rejected changes nothing. What is the same for every
 * kind is checked here; then zod checks the kind's shape and the kind's module (kinds/) its own
 * rules (options, form fields, digest, tokens used). Pure: runs inside the workflow sandbox.
 */
import { firstIssuePath, issueLines } from '../../base/issue-lines';
import type { PlanCheck } from '../plan/plan-types';
import type { AnswerRejection } from './answer-rejection';
import type { Answer, AnswerCheck, AnswerInput, Interaction } from './interaction-types';
import { invalid, quote } from './kinds/answer-rules';
import { moduleOf } from './kinds/registry';

/** The interaction cannot take an answer (unknown, answered, expired). */
const notOpen = (error: string): AnswerRejection => ({ ok: false, code: 'NOT_OPEN', field: 'interactionId', error });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks an answer to an interaction. Rejects as `NOT_OPEN` (field `interactionId`) an unknown
 * interaction (`no interaction "<id>"`) and one already answered or expired; as `INVALID_ANSWER`
 * an answer that is not an object, or lacks its kind's key (field `answer`), and any broken rule
 * of the kind (field `answer.<path>` of the first). On success the answer is normalised: text
 * trimmed, form defaults filled, an edited plan as `checkPlan` returned it.
 * @param interaction the interaction `input.interactionId` names, if there is one.
 * @param checkPlan validates an edited plan like an LLM plan (injected: plan rules live elsewhere).
 */
export function validateAnswer(
  interaction: Interaction | undefined,
  input: AnswerInput,
  checkPlan: (value: unknown) => PlanCheck,
): AnswerCheck {
  const id = input.interactionId;
  if (interaction === undefined || interaction.id !== id) return notOpen(`no interaction ${quote(String(id))}`);
  if (interaction.status === 'answered') return notOpen(`interaction ${quote(id)} is already answered`);
  if (interaction.status === 'expired') return notOpen(`interaction ${quote(id)} has expired`);
  const { incoming } = moduleOf(interaction.kind);
  if (!isRecord(input.answer)) {
    return invalid('', `answer: must be an object; an ${interaction.kind} answer is ${incoming.shape}`);
  }
  const checked = checkByKind(interaction, input.answer, checkPlan);
  // Without its kind's key the answer is one of another kind (or none): the whole answer is wrong.
  if (!checked.ok && !Object.hasOwn(input.answer, incoming.key)) return { ...checked, field: 'answer' };
  return checked;
}

/** The answer's shape by zod (one `path: message` per issue, the first issue's field), then the kind's rules. */
function checkByKind(
  interaction: Interaction,
  answer: Record<string, unknown>,
  checkPlan: (value: unknown) => PlanCheck,
): AnswerCheck {
  const module = moduleOf(interaction.kind);
  const parsed = module.incoming.schema.safeParse(answer);
  if (!parsed.success) return invalid(firstIssuePath(parsed.error), issueLines(parsed.error, 'answer').join('; '));
  const checked = module.check(interaction, parsed.data, { checkPlan });
  // The module of this very kind checked it: its answer is this kind's.
  return checked.ok ? { ok: true, answer: checked.answer as Answer } : checked;
}
