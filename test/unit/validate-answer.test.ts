/**
 * Answer validation: every rule accepts a good answer and rejects a bad one with a code (`NOT_OPEN`
 * or `INVALID_ANSWER`), the offending field and a message naming the rule.
 */
import type { AnswerRejection } from '../../workflows/model/interactions/answer-rejection';
import type { Answer, Interaction, InteractionSpec } from '../../workflows/model/interactions/interaction-types';
import { validateAnswer } from '../../workflows/model/interactions/validate-answer';
import type { Plan, PlanCheck } from '../../workflows/model/plan/plan-types';

const plan: Plan = {
  task: 'Write a report',
  language: 'en',
  steps: [{ id: 's1', title: 'Research', description: 'Find sources', depends_on: [] }],
  replan: [],
};

/** A checkPlan that must not be reached. */
const noPlanCheck = (): PlanCheck => {
  throw new Error('checkPlan should not be called');
};

/** An open interaction with id `i1`. */
const open = (spec: InteractionSpec, extra: { stepId?: string } = {}): Interaction => ({
  ...spec,
  id: 'i1',
  status: 'open',
  createdAt: 0,
  ...extra,
});

const check = (interaction: Interaction | undefined, answer: unknown, checkPlan = noPlanCheck) =>
  validateAnswer(interaction, { interactionId: 'i1', answer, by: 'ada' }, checkPlan);

/** The normalised answer, failing the test with the error when it was rejected. */
function accepted(interaction: Interaction, answer: unknown, checkPlan = noPlanCheck): Answer {
  const result = check(interaction, answer, checkPlan);
  if (!result.ok) throw new Error(`expected the answer to be accepted, got: ${result.error}`);
  return result.answer;
}

/** The rejection, failing the test when the answer was accepted. */
function rejected(interaction: Interaction | undefined, answer: unknown, checkPlan = noPlanCheck): AnswerRejection {
  const result = check(interaction, answer, checkPlan);
  if (result.ok) throw new Error(`expected the answer to be rejected, got: ${JSON.stringify(result.answer)}`);
  return result;
}

/** The rejection of an answer to an interaction that cannot take one. */
const notOpen = (error: string): AnswerRejection => ({ ok: false, code: 'NOT_OPEN', field: 'interactionId', error });

/** The rejection of an answer that breaks a rule at `field`. */
const invalid = (field: string, error: string): AnswerRejection => ({
  ok: false,
  code: 'INVALID_ANSWER',
  field,
  error,
});

const query = open({ kind: 'ask.query', prompt: 'Which city?' });

describe('which interaction', () => {
  test('an unknown interaction', () => {
    expect(rejected(undefined, { text: 'Paris' })).toEqual(notOpen('no interaction "i1"'));
    expect(rejected({ ...query, id: 'i2' }, { text: 'Paris' })).toEqual(notOpen('no interaction "i1"'));
  });

  test('an interaction already answered or expired', () => {
    expect(rejected({ ...query, status: 'answered' }, { text: 'Paris' })).toEqual(
      notOpen('interaction "i1" is already answered'),
    );
    expect(rejected({ ...query, status: 'expired' }, { text: 'Paris' })).toEqual(
      notOpen('interaction "i1" has expired'),
    );
  });

  test.each([null, 'Paris', ['Paris'], 3])('an answer that is not an object: %j', (answer) => {
    expect(rejected(query, answer)).toEqual(
      invalid('answer', 'answer: must be an object; an ask.query answer is { text }'),
    );
  });

  test("an answer of another kind's shape", () => {
    // Without its kind's key (`text`, `values`, `decision`) the whole answer is named.
    expect(rejected(query, { decision: 'approve', digest: 'd' })).toEqual(invalid('answer', 'text: required'));
    expect(rejected(open({ kind: 'step.failure', prompt: 'Failed', error: 'boom' }), { text: 'retry' })).toEqual(
      invalid('answer', 'decision: must be one of retry, skip, abort'),
    );
  });
});

describe('ask.query → { text }', () => {
  test('accepted, trimmed; 4000 characters is the limit', () => {
    expect(accepted(query, { text: '  Paris \n' })).toEqual({ text: 'Paris' });
    expect(accepted(query, { text: 't'.repeat(4000) })).toEqual({ text: 't'.repeat(4000) });
  });

  test.each<[string, unknown, string, string]>([
    ['blank', { text: ' \n ' }, 'text: must not be empty', 'answer.text'],
    ['too long', { text: 't'.repeat(4001) }, 'text: must be at most 4000 characters', 'answer.text'],
    ['not a string', { text: 42 }, 'text: must be a string', 'answer.text'],
  ])('rejected: %s', (_name, answer, error, field) => {
    expect(rejected(query, answer)).toEqual(invalid(field, error));
  });
});

describe('ask.select → { values }', () => {
  const single = open({ kind: 'ask.select', prompt: 'Colour?', options: ['red', 'blue', 'green'], multiple: false });
  const multiple = open({ kind: 'ask.select', prompt: 'Colours?', options: ['red', 'blue', 'green'], multiple: true });

  test('accepted: one value, or several when multiple', () => {
    expect(accepted(single, { values: ['blue'] })).toEqual({ values: ['blue'] });
    expect(accepted(multiple, { values: ['green', 'red'] })).toEqual({ values: ['green', 'red'] });
    expect(accepted(multiple, { values: ['red'] })).toEqual({ values: ['red'] });
  });

  test.each<[string, Interaction, unknown, string, string]>([
    ['a value not offered', single, { values: ['x'] }, 'values: "x" is not one of the options', 'answer.values'],
    [
      'a value not offered (multiple)',
      multiple,
      { values: ['red', 'x'] },
      'values: "x" is not one of the options',
      'answer.values',
    ],
    ['a value twice', multiple, { values: ['red', 'red'] }, 'values: "red" is chosen twice', 'answer.values'],
    [
      'two values in a single select',
      single,
      { values: ['red', 'blue'] },
      'values: choose exactly one option',
      'answer.values',
    ],
    ['no value in a single select', single, { values: [] }, 'values: choose exactly one option', 'answer.values'],
    ['no value in a multiple select', multiple, { values: [] }, 'values: choose at least one option', 'answer.values'],
    ['values not a list', single, { values: 'red' }, 'values: must be a list of option values', 'answer.values'],
    ['a value not a string', single, { values: [1] }, 'values.0: must be a string', 'answer.values.0'],
    ['no values', single, { value: 'red' }, 'values: required', 'answer'],
  ])('rejected: %s', (_name, interaction, answer, error, field) => {
    expect(rejected(interaction, answer)).toEqual(invalid(field, error));
  });
});

describe('ask.form → { values: { key: value } }', () => {
  const form = open({
    kind: 'ask.form',
    prompt: 'About you',
    fields: [
      { key: 'name', label: 'Name', type: 'input', required: true, maxLength: 10 },
      { key: 'bio', label: 'Bio', type: 'textarea', required: false, default: 'none' },
      { key: 'age', label: 'Age', type: 'number', required: false, min: 0, max: 120 },
      { key: 'size', label: 'Size', type: 'select', required: false, options: ['S', 'M'], default: 'M' },
      { key: 'tags', label: 'Tags', type: 'multiselect', required: false, options: ['a', 'b', 'c'] },
      { key: 'agree', label: 'Agree', type: 'boolean', required: true },
      { key: 'day', label: 'Day', type: 'date', required: false },
    ],
  });
  const base = { name: 'Ada', agree: false };

  test('accepted: every type; text trimmed; missing, null or blank optional fields get their default', () => {
    const values = { ...base, bio: ' Hi ', age: 36, size: 'S', tags: ['c', 'a'], day: '2024-02-29' };
    expect(accepted(form, { values: { ...values, name: '  Ada ' } })).toEqual({ values: { ...values, bio: 'Hi' } });
    expect(accepted(form, { values: base })).toEqual({ values: { ...base, bio: 'none', size: 'M' } });
    expect(accepted(form, { values: { ...base, bio: ' ', size: null, age: null } })).toEqual({
      values: { ...base, bio: 'none', size: 'M' },
    });
  });

  test('accepted: bounds are inclusive; an optional multiselect may be empty', () => {
    const values = { ...base, name: 'n'.repeat(10), age: 120, tags: [] };
    expect(accepted(form, { values })).toMatchObject({ values });
    expect(accepted(form, { values: { ...base, age: 0 } })).toMatchObject({ values: { age: 0 } });
  });

  test.each<[string, Record<string, unknown>, string, string]>([
    ['an unknown key', { ...base, email: 'a@b.c' }, 'values.email: not a field of this form', 'answer.values.email'],
    ['a required field missing', { agree: true }, 'values.name: required', 'answer.values.name'],
    ['a required field blank', { ...base, name: '   ' }, 'values.name: required', 'answer.values.name'],
    ['a required boolean missing', { name: 'Ada' }, 'values.agree: required', 'answer.values.agree'],
    ['text not a string', { ...base, name: 7 }, 'values.name: must be a string', 'answer.values.name'],
    [
      'text too long',
      { ...base, name: 'n'.repeat(11) },
      'values.name: must be at most 10 characters',
      'answer.values.name',
    ],
    ['a number as a numeric string', { ...base, age: '42' }, 'values.age: must be a number', 'answer.values.age'],
    ['a number below min', { ...base, age: -1 }, 'values.age: must be at least 0', 'answer.values.age'],
    ['a number above max', { ...base, age: 121 }, 'values.age: must be at most 120', 'answer.values.age'],
    [
      'a select value not offered',
      { ...base, size: 'XL' },
      'values.size: "XL" is not one of the options',
      'answer.values.size',
    ],
    [
      'a select value not a string',
      { ...base, size: ['S'] },
      'values.size: must be one of the options',
      'answer.values.size',
    ],
    [
      'a multiselect not a list',
      { ...base, tags: 'a' },
      'values.tags: must be a list of options',
      'answer.values.tags',
    ],
    [
      'a multiselect value not offered',
      { ...base, tags: ['a', 'z'] },
      'values.tags: "z" is not one of the options',
      'answer.values.tags',
    ],
    [
      'a multiselect value twice',
      { ...base, tags: ['a', 'a'] },
      'values.tags: "a" is chosen twice',
      'answer.values.tags',
    ],
    ['a boolean as a string', { ...base, agree: 'true' }, 'values.agree: must be true or false', 'answer.values.agree'],
    [
      'a date badly written',
      { ...base, day: '29.02.2024' },
      'values.day: must be a date as YYYY-MM-DD',
      'answer.values.day',
    ],
    [
      'a date not in the calendar',
      { ...base, day: '2023-02-29' },
      'values.day: "2023-02-29" is not a calendar date',
      'answer.values.day',
    ],
    [
      'a month not in the calendar',
      { ...base, day: '2024-13-01' },
      'values.day: "2024-13-01" is not a calendar date',
      'answer.values.day',
    ],
  ])('rejected: %s', (_name, values, error, field) => {
    expect(rejected(form, { values })).toEqual(invalid(field, error));
  });

  test('a number must be finite', () => {
    expect(rejected(form, { values: { ...base, age: Infinity } })).toEqual(
      invalid('answer.values.age', 'values.age: must be a number'),
    );
  });

  test('a required multiselect needs at least one choice', () => {
    const fields = [{ key: 'tags', label: 'Tags', type: 'multiselect' as const, required: true, options: ['a'] }];
    const required = open({ kind: 'ask.form', prompt: 'Tags', fields });
    expect(rejected(required, { values: { tags: [] } })).toEqual(
      invalid('answer.values.tags', 'values.tags: required'),
    );
    expect(accepted(required, { values: { tags: ['a'] } })).toEqual({ values: { tags: ['a'] } });
  });

  test('a key inherited from Object.prototype is not taken as a value', () => {
    const fields = [{ key: 'constructor', label: 'C', type: 'input' as const, required: true }];
    const tricky = open({ kind: 'ask.form', prompt: 'C', fields });
    expect(rejected(tricky, { values: {} })).toEqual(
      invalid('answer.values.constructor', 'values.constructor: required'),
    );
  });

  test('every broken rule is named; values must be an object', () => {
    expect(rejected(form, { values: { name: 'n'.repeat(11), age: 200, x: 1 } })).toEqual(
      invalid(
        'answer.values.x',
        'values.x: not a field of this form; values.name: must be at most 10 characters; ' +
          'values.age: must be at most 120; values.agree: required',
      ),
    );
    expect(rejected(form, { values: ['Ada'] })).toEqual(
      invalid('answer.values', 'values: must be an object keyed by field key'),
    );
    expect(rejected(form, {})).toEqual(invalid('answer', 'values: required'));
  });
});

describe('plan.check → { decision, feedback?, plan? }', () => {
  const planCheck = open({ kind: 'plan.check', prompt: 'Check the plan', plan, revision: 1 });
  const edited: Plan = {
    ...plan,
    steps: [...plan.steps, { id: 's2', title: 'Write', description: 'Write it', depends_on: ['s1'] }],
  };

  test('confirm and cancel need nothing; blank feedback is dropped', () => {
    expect(accepted(planCheck, { decision: 'confirm' })).toEqual({ decision: 'confirm' });
    expect(accepted(planCheck, { decision: 'cancel', feedback: '  ' })).toEqual({ decision: 'cancel' });
    expect(accepted(planCheck, { decision: 'cancel', feedback: ' too slow ' })).toEqual({
      decision: 'cancel',
      feedback: 'too slow',
    });
  });

  test('revise needs feedback', () => {
    expect(accepted(planCheck, { decision: 'revise', feedback: ' Add a review step ' })).toEqual({
      decision: 'revise',
      feedback: 'Add a review step',
    });
    expect(rejected(planCheck, { decision: 'revise' })).toEqual(
      invalid('answer.feedback', 'feedback: a revise needs feedback'),
    );
    expect(rejected(planCheck, { decision: 'revise', feedback: ' ' })).toEqual(
      invalid('answer.feedback', 'feedback: a revise needs feedback'),
    );
  });

  test('edit needs a plan, and takes the plan as checkPlan returns it', () => {
    const checkPlan = jest.fn((): PlanCheck => ({ ok: true, plan: edited }));
    expect(accepted(planCheck, { decision: 'edit', plan: { raw: true } }, checkPlan)).toEqual({
      decision: 'edit',
      plan: edited,
    });
    expect(checkPlan).toHaveBeenCalledWith({ raw: true });
    expect(rejected(planCheck, { decision: 'edit' })).toEqual(
      invalid('answer.plan', 'plan: an edit needs the changed plan'),
    );
  });

  test('an edited plan that breaks the plan rules is rejected with those errors', () => {
    const errors = ['step "s2": depends on unknown step "x"', 'replan: unknown step "s9"'];
    const checkPlan = (): PlanCheck => ({ ok: false, errors });
    expect(rejected(planCheck, { decision: 'edit', plan: edited }, checkPlan)).toEqual(
      invalid('answer.plan', `plan: ${errors.join('; ')}`),
    );
  });

  test("an edit's unknown key is rejected with the key's own field", () => {
    const errors = ["steps.1.dependsOn: unknown key; a step's keys are id, title, description, depends_on, done_when"];
    const checkPlan = (): PlanCheck => ({ ok: false, errors, field: 'steps.1.dependsOn' });
    expect(rejected(planCheck, { decision: 'edit', plan: edited }, checkPlan)).toEqual(
      invalid('answer.plan.steps.1.dependsOn', `plan: ${errors.join('; ')}`),
    );
  });

  test('an unknown decision, or feedback that is not text', () => {
    expect(rejected(planCheck, { decision: 'approve' })).toEqual(
      invalid('answer.decision', 'decision: must be one of confirm, revise, edit, cancel'),
    );
    expect(rejected(planCheck, { decision: 'revise', feedback: 3 })).toEqual(
      invalid('answer.feedback', 'feedback: must be a string'),
    );
    expect(rejected(planCheck, { decision: 'revise', feedback: 'f'.repeat(4001) })).toEqual(
      invalid('answer.feedback', 'feedback: must be at most 4000 characters'),
    );
  });
});

describe('tool.approval → { decision, digest, reason? }', () => {
  const approval = open({
    kind: 'tool.approval',
    prompt: 'Allow writing?',
    tool: 'write_file',
    arguments: { path: 'a.txt' },
    digest: 'sha-abc',
  });

  test('accepted for the same digest, with an optional reason', () => {
    expect(accepted(approval, { decision: 'approve', digest: 'sha-abc' })).toEqual({
      decision: 'approve',
      digest: 'sha-abc',
    });
    expect(accepted(approval, { decision: 'reject', digest: 'sha-abc', reason: ' no ' })).toEqual({
      decision: 'reject',
      digest: 'sha-abc',
      reason: 'no',
    });
  });

  test.each<[string, unknown, string, string]>([
    [
      'another digest',
      { decision: 'approve', digest: 'sha-xyz' },
      'digest: this approval is for other arguments',
      'answer.digest',
    ],
    ['no digest', { decision: 'approve' }, 'digest: required', 'answer.digest'],
    [
      'an unknown decision',
      { decision: 'confirm', digest: 'sha-abc' },
      'decision: must be one of approve, reject',
      'answer.decision',
    ],
  ])('rejected: %s', (_name, answer, error, field) => {
    expect(rejected(approval, answer)).toEqual(invalid(field, error));
  });
});

describe('step.failure → { decision }', () => {
  const failure = open({ kind: 'step.failure', prompt: 'Step s2 failed', error: 'timeout' }, { stepId: 's2' });

  test.each(['retry', 'skip', 'abort'])('accepted: %s', (decision) => {
    expect(accepted(failure, { decision })).toEqual({ decision });
  });

  test('rejected: an unknown decision', () => {
    expect(rejected(failure, { decision: 'ignore' })).toEqual(
      invalid('answer.decision', 'decision: must be one of retry, skip, abort'),
    );
  });
});

describe('budget → { decision, tokenBudget? }', () => {
  const budget = open({ kind: 'budget', prompt: 'Budget reached', usedTokens: 10_000, tokenBudget: 10_000 });

  test('raise above the tokens used; stop needs nothing', () => {
    expect(accepted(budget, { decision: 'raise', tokenBudget: 10_001 })).toEqual({
      decision: 'raise',
      tokenBudget: 10_001,
    });
    expect(accepted(budget, { decision: 'stop', tokenBudget: 5 })).toEqual({ decision: 'stop' });
  });

  test.each<[string, unknown, string, string]>([
    [
      'a raise to the tokens used',
      { decision: 'raise', tokenBudget: 10_000 },
      'tokenBudget: must be greater than the 10000 tokens already used',
      'answer.tokenBudget',
    ],
    [
      'a raise below the tokens used',
      { decision: 'raise', tokenBudget: 500 },
      'tokenBudget: must be greater than the 10000 tokens already used',
      'answer.tokenBudget',
    ],
    [
      'a raise without a budget',
      { decision: 'raise' },
      'tokenBudget: a raise needs the new budget (tokenBudget or costBudgetUsd)',
      'answer.tokenBudget',
    ],
    [
      'a fractional budget',
      { decision: 'raise', tokenBudget: 20_000.5 },
      'tokenBudget: must be a whole number',
      'answer.tokenBudget',
    ],
    [
      'a budget as a string',
      { decision: 'raise', tokenBudget: '20000' },
      'tokenBudget: must be a number',
      'answer.tokenBudget',
    ],
    ['an unknown decision', { decision: 'more' }, 'decision: must be one of raise, stop', 'answer.decision'],
  ])('rejected: %s', (_name, answer, error, field) => {
    expect(rejected(budget, answer)).toEqual(invalid(field, error));
  });

  test('with a ceiling (a thread turn: what the thread has left), a raise up to it is taken and one past it refused', () => {
    const capped = open({
      kind: 'budget',
      prompt: 'Budget reached',
      usedTokens: 100,
      tokenBudget: 100,
      costUsd: 0.1,
      maxTokenBudget: 1_000,
      maxCostBudgetUsd: 2,
    });
    expect(accepted(capped, { decision: 'raise', tokenBudget: 1_000, costBudgetUsd: 2 })).toEqual({
      decision: 'raise',
      tokenBudget: 1_000,
      costBudgetUsd: 2,
    });
    expect(rejected(capped, { decision: 'raise', tokenBudget: 1_001 })).toEqual(
      invalid('answer.tokenBudget', 'tokenBudget: at most 1000 (the most this agent may be given)'),
    );
    expect(rejected(capped, { decision: 'raise', costBudgetUsd: 2.5 })).toEqual(
      invalid('answer.costBudgetUsd', 'costBudgetUsd: at most $2 (the most this agent may be given)'),
    );
  });
});
