/**
 * `cairn run` at the prompt, after a form answer is refused: the field to ask again is read from
 * the coded error's field (`answer.values.<key>`), never from the message; the other entries are
 * kept. A field that is not one form field (the whole answer, `answer.values`) asks every field.
 */
import type { FormField, Interaction } from '../../workflows/model/interactions/interaction-types';
import { rejectedKeys } from '../../client/agents/cli/form-answers';
import { PromptingAnswers } from '../../client/agents/cli/prompting-answers';
import type { Prompter } from '../../client/cli/prompter';

const fields: FormField[] = [
  { key: 'title', label: 'Title', type: 'input', required: true },
  { key: 'pages', label: 'Pages', type: 'number', required: true, min: 1, max: 20 },
];
const form: Interaction = { id: 'i1', kind: 'ask.form', prompt: 'Details', fields, status: 'open', createdAt: 0 };

/** A prompter answering text and number questions from `responses`, recording what it asked and showed. */
function scripted(responses: unknown[]) {
  const asked: string[] = [];
  const shown: string[] = [];
  const next = <T>(message: string): Promise<T> => {
    asked.push(message);
    if (responses.length === 0) throw new Error(`no scripted response for "${message}"`);
    return Promise.resolve(responses.shift() as T);
  };
  const unexpected = (message: string) => Promise.reject(new Error(`unexpected question "${message}"`));
  const prompter: Prompter = {
    show: (text) => void shown.push(text),
    text: (message) => next(message),
    number: (message) => next(message),
    select: (message) => unexpected(message),
    multiSelect: (message) => unexpected(message),
    confirm: (message) => unexpected(message),
    editor: (message) => unexpected(message),
  };
  return { prompter, asked, shown };
}

test('rejectedKeys: the form field an error field names, or none', () => {
  expect(rejectedKeys(fields, 'answer.values.pages')).toEqual(['pages']);
  expect(rejectedKeys(fields, 'answer.values.title.0')).toEqual(['title']);
  expect(rejectedKeys(fields, 'answer.values.nope')).toEqual([]);
  expect(rejectedKeys(fields, 'answer.values')).toEqual([]);
  expect(rejectedKeys(fields, 'answer')).toEqual([]);
  // A message is not a field: nothing is read out of it.
  expect(rejectedKeys(fields, 'values.pages: must be at most 20')).toEqual([]);
});

test('after a refusal naming answer.values.pages, only Pages is asked again; the message is shown', async () => {
  const fake = scripted(['Report', 30, 3]);
  const answers = new PromptingAnswers(fake.prompter);
  expect(await answers.answer(form, {})).toEqual({ values: { title: 'Report', pages: 30 } });
  const again = await answers.answer(form, {
    rejection: 'values.pages: must be at most 20',
    rejectedField: 'answer.values.pages',
  });
  expect(again).toEqual({ values: { title: 'Report', pages: 3 } });
  expect(fake.asked).toEqual(['Title', 'Pages', 'Pages']);
  expect(fake.shown).toContain('✗ rejected: values.pages: must be at most 20');
});

test('a refusal naming the whole answer asks every field again', async () => {
  const fake = scripted(['Report', 30, 'Other', 4]);
  const answers = new PromptingAnswers(fake.prompter);
  await answers.answer(form, {});
  const again = await answers.answer(form, { rejection: 'values: required', rejectedField: 'answer' });
  expect(again).toEqual({ values: { title: 'Other', pages: 4 } });
  expect(fake.asked).toEqual(['Title', 'Pages', 'Title', 'Pages']);
});
