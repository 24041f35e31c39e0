/**
 * Checks a human's answer (the `answer` signal and update) against the interaction it answers and
 * returns it normalised and typed — or a coded rejection: `NOT_OPEN` or `INVALID_ANSWER`, the
 * offending field's path (`interactionId`, `answer.values.pages`, …) and the broken rule as
 * `path: message`, so the update validator, the HTTP API and the CLI can show it as it is and act
 * on the code and field. An answer that is rejected changes nothing. zod checks each kind's shape;
 * plain functions then check the rules that depend on the interaction (options, form fields,
 * digest, tokens used). Pure: runs inside the workflow sandbox.
 */
import { type z } from 'zod';
import { firstIssuePath, issueLines } from '../issue-lines';
import type { PlanCheck } from '../plan/plan-types';
import type { AnswerRejection } from './answer-rejection';
import type { Answer, AnswerCheck, AnswerInput, Interaction, InteractionKind } from './interaction-types';
import { firstDuplicate, validateFormValues } from './validate-form';
import {
  KIND_KEYS,
  SHAPES,
  approvalSchema,
  budgetSchema,
  failureSchema,
  deadlineSchema,
  planCheckSchema,
  querySchema,
  selectSchema,
} from './answer-shapes';

/** The interaction of one kind. */
type Of<K extends InteractionKind> = Extract<Interaction, { kind: K }>;

const accept = (answer: Answer): AnswerCheck => ({ ok: true, answer });
const quote = (value: string): string => JSON.stringify(value);

/** The interaction cannot take an answer (unknown, answered, expired). */
const notOpen = (error: string): AnswerRejection => ({ ok: false, code: 'NOT_OPEN', field: 'interactionId', error });

/**
 * The answer breaks a rule.
 * @param path where, inside the answer (`values.pages`); empty for the answer itself.
 */
const invalid = (path: string, error: string): AnswerRejection => ({
  ok: false,
  code: 'INVALID_ANSWER',
  field: path ? `answer.${path}` : 'answer',
  error,
});

/** One `path: message` per zod issue, joined (the root is called `answer`); the field is the first issue's. */
const rejectIssues = (error: z.ZodError): AnswerRejection =>
  invalid(firstIssuePath(error), issueLines(error, 'answer').join('; '));

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
  if (!isRecord(input.answer)) {
    return invalid('', `answer: must be an object; an ${interaction.kind} answer is ${SHAPES[interaction.kind]}`);
  }
  const checked = checkByKind(interaction, input.answer, checkPlan);
  // Without its kind's key the answer is one of another kind (or none): the whole answer is wrong.
  if (!checked.ok && !Object.hasOwn(input.answer, KIND_KEYS[interaction.kind])) return { ...checked, field: 'answer' };
  return checked;
}

function checkByKind(
  interaction: Interaction,
  answer: Record<string, unknown>,
  checkPlan: (value: unknown) => PlanCheck,
): AnswerCheck {
  switch (interaction.kind) {
    case 'ask.query':
      return checkQuery(answer);
    case 'ask.select':
      return checkSelect(interaction, answer);
    case 'ask.form':
      return checkForm(interaction, answer);
    case 'plan.check':
      return checkPlanDecision(answer, checkPlan);
    case 'tool.approval':
      return checkApproval(interaction, answer);
    case 'step.failure':
      return checkStepFailure(answer);
    case 'budget':
      return checkBudget(interaction, answer);
    case 'deadline':
      return checkDeadline(answer);
  }
}

/** `ask.query` → `{ text }`: a string, non-empty once trimmed, at most 4000 characters. */
function checkQuery(answer: Record<string, unknown>): AnswerCheck {
  const parsed = querySchema.safeParse(answer);
  return parsed.success ? accept({ text: parsed.data.text }) : rejectIssues(parsed.error);
}

/** `ask.select` → `{ values }`: offered options only, no repeats, one (or, if multiple, at least one). */
function checkSelect(interaction: Of<'ask.select'>, answer: Record<string, unknown>): AnswerCheck {
  const parsed = selectSchema.safeParse(answer);
  if (!parsed.success) return rejectIssues(parsed.error);
  const { values } = parsed.data;
  const stray = values.find((value) => !interaction.options.includes(value));
  if (stray !== undefined) return invalid('values', `values: ${quote(stray)} is not one of the options`);
  const twice = firstDuplicate(values);
  if (twice !== undefined) return invalid('values', `values: ${quote(twice)} is chosen twice`);
  if (!interaction.multiple && values.length !== 1) return invalid('values', 'values: choose exactly one option');
  if (interaction.multiple && values.length === 0) return invalid('values', 'values: choose at least one option');
  return accept({ values });
}

/** `ask.form` → `{ values: { <key>: <value> } }`, every field rule applied (see validate-form). */
function checkForm(interaction: Of<'ask.form'>, answer: Record<string, unknown>): AnswerCheck {
  if (answer.values === undefined) return invalid('values', 'values: required');
  if (!isRecord(answer.values)) return invalid('values', 'values: must be an object keyed by field key');
  const checked = validateFormValues(interaction.fields, answer.values);
  return checked.ok ? accept({ values: checked.values }) : invalid(checked.field, checked.errors.join('; '));
}

/** `plan.check`: `revise` needs feedback; `edit` needs a plan that passes `checkPlan`. */
function checkPlanDecision(answer: Record<string, unknown>, checkPlan: (value: unknown) => PlanCheck): AnswerCheck {
  const parsed = planCheckSchema.safeParse(answer);
  if (!parsed.success) return rejectIssues(parsed.error);
  const { decision, plan } = parsed.data;
  // Blank feedback counts as none; optional keys stay absent rather than empty.
  const feedback = parsed.data.feedback ? { feedback: parsed.data.feedback } : {};
  if (decision === 'revise' && !('feedback' in feedback))
    return invalid('feedback', 'feedback: a revise needs feedback');
  if (decision !== 'edit') return accept({ decision, ...feedback });
  if (plan === undefined) return invalid('plan', 'plan: an edit needs the changed plan');
  const checked = checkPlan(plan);
  if (!checked.ok)
    return invalid(checked.field ? `plan.${checked.field}` : 'plan', `plan: ${checked.errors.join('; ')}`);
  return accept({ decision, plan: checked.plan, ...feedback });
}

/** `tool.approval`: the answer must carry the digest of the arguments it approves (or rejects). */
function checkApproval(interaction: Of<'tool.approval'>, answer: Record<string, unknown>): AnswerCheck {
  const parsed = approvalSchema.safeParse(answer);
  if (!parsed.success) return rejectIssues(parsed.error);
  const { decision, digest, reason } = parsed.data;
  if (digest !== interaction.digest) return invalid('digest', 'digest: this approval is for other arguments');
  return accept({ decision, digest, ...(reason ? { reason } : {}) });
}

/** `step.failure` → `{ decision: retry | skip | abort }`. */
function checkStepFailure(answer: Record<string, unknown>): AnswerCheck {
  const parsed = failureSchema.safeParse(answer);
  return parsed.success ? accept({ decision: parsed.data.decision }) : rejectIssues(parsed.error);
}

/**
 * `budget`: `raise` needs a new `tokenBudget` above the tokens already used and/or a new
 * `costBudgetUsd` above the cost so far; `stop` needs nothing.
 */
function checkBudget(interaction: Of<'budget'>, answer: Record<string, unknown>): AnswerCheck {
  const parsed = budgetSchema.safeParse(answer);
  if (!parsed.success) return rejectIssues(parsed.error);
  const { decision, tokenBudget, costBudgetUsd } = parsed.data;
  if (decision === 'stop') return accept({ decision });
  if (tokenBudget === undefined && costBudgetUsd === undefined) {
    return invalid('tokenBudget', 'tokenBudget: a raise needs the new budget (tokenBudget or costBudgetUsd)');
  }
  if (tokenBudget !== undefined && tokenBudget <= interaction.usedTokens) {
    return invalid(
      'tokenBudget',
      `tokenBudget: must be greater than the ${interaction.usedTokens} tokens already used`,
    );
  }
  const spent = interaction.costUsd ?? 0;
  if (costBudgetUsd !== undefined && costBudgetUsd <= spent) {
    return invalid('costBudgetUsd', `costBudgetUsd: must be greater than the $${spent} already spent`);
  }
  return accept({
    decision,
    ...(tokenBudget !== undefined ? { tokenBudget } : {}),
    ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
  });
}

/** `deadline`: `extend` needs `deadlineMs`, how much longer from now; `stop` needs nothing. */
function checkDeadline(answer: Record<string, unknown>): AnswerCheck {
  const parsed = deadlineSchema.safeParse(answer);
  if (!parsed.success) return rejectIssues(parsed.error);
  const { decision, deadlineMs } = parsed.data;
  if (decision === 'stop') return accept({ decision });
  if (deadlineMs === undefined) return invalid('deadlineMs', 'deadlineMs: an extension needs how long (ms from now)');
  return accept({ decision, deadlineMs });
}
