/** The `ask_user` tool: argument rules with `path: message` errors, the derived JSON Schema, the mapping to interactions. */
import { z } from 'zod';
import { askArgsSchema, parseAskArgs } from '../../workflows/model/interactions/ask-schema';
import { askUserTool, toInteractionSpec } from '../../workflows/model/interactions/ask-user-tool';
import type { AskRequest } from '../../workflows/model/interactions/interaction-types';

const parse = (args: unknown) => parseAskArgs(JSON.stringify(args));
const form = (...fields: unknown[]) => ({ kind: 'form', prompt: 'Details?', fields });
const options = (n: number) => Array.from({ length: n }, (_, i) => `option ${i}`);

/** The request, failing the test with the errors when parsing did not succeed. */
function accepted(args: unknown): AskRequest {
  const result = parse(args);
  if (!result.ok) throw new Error(`expected the arguments to be accepted, got: ${result.errors.join('; ')}`);
  return result.request;
}

/** The errors, failing the test when parsing succeeded. */
function rejected(args: unknown): string[] {
  const result = parse(args);
  if (result.ok) throw new Error(`expected the arguments to be rejected, got: ${JSON.stringify(result.request)}`);
  return result.errors;
}

describe('parseAskArgs — accepted', () => {
  test('a query, prompt trimmed, stray properties dropped', () => {
    expect(accepted({ kind: 'query', prompt: '  Which city?  ', options: [] })).toEqual({
      kind: 'query',
      prompt: 'Which city?',
    });
  });

  test('a prompt of exactly 2000 characters', () => {
    expect(accepted({ kind: 'query', prompt: 'p'.repeat(2000) })).toMatchObject({ kind: 'query' });
  });

  test('a select: multiple defaults to false; options trimmed; up to 20 options', () => {
    expect(accepted({ kind: 'select', prompt: 'Pick', options: [' red ', 'blue'] })).toEqual({
      kind: 'select',
      prompt: 'Pick',
      options: ['red', 'blue'],
      multiple: false,
    });
    expect(accepted({ kind: 'select', prompt: 'Pick', options: options(20), multiple: true })).toMatchObject({
      multiple: true,
      options: options(20),
    });
  });

  test('a form: required defaults to false, only the properties a type uses are kept, defaults normalised', () => {
    const request = accepted(
      form(
        { key: 'name', label: 'Name', type: 'input', maxLength: 40, default: '  Ada ', min: 1 },
        { key: 'age', label: 'Age', type: 'number', min: 0, max: 0, default: 0, options: ['x'], required: true },
        { key: 'size', label: 'Size', type: 'select', options: ['S', 'M'], default: 'M', maxLength: 3 },
        { key: 'tags', label: 'Tags', type: 'multiselect', options: ['a', 'b'], default: ['b'] },
        { key: '_ok', label: 'OK?', type: 'boolean', default: true },
        { key: 'day', label: 'Day', type: 'date', default: '2024-02-29' },
      ),
    );
    expect(request).toEqual({
      kind: 'form',
      prompt: 'Details?',
      fields: [
        { key: 'name', label: 'Name', type: 'input', required: false, maxLength: 40, default: 'Ada' },
        { key: 'age', label: 'Age', type: 'number', required: true, min: 0, max: 0, default: 0 },
        { key: 'size', label: 'Size', type: 'select', required: false, options: ['S', 'M'], default: 'M' },
        { key: 'tags', label: 'Tags', type: 'multiselect', required: false, options: ['a', 'b'], default: ['b'] },
        { key: '_ok', label: 'OK?', type: 'boolean', required: false, default: true },
        { key: 'day', label: 'Day', type: 'date', required: false, default: '2024-02-29' },
      ],
    });
  });

  test('a form of 20 fields', () => {
    const fields = Array.from({ length: 20 }, (_, i) => ({ key: `f${i}`, label: `F${i}`, type: 'input' }));
    const request = accepted(form(...fields));
    expect(request.kind === 'form' && request.fields.map((field) => field.key)).toEqual(fields.map((f) => f.key));
  });
});

const input = { key: 'name', label: 'Name', type: 'input' };

describe('parseAskArgs — rejected, one message per rule', () => {
  test.each<[string, unknown, string]>([
    ['not an object', ['query'], 'arguments: must be an object'],
    ['an unknown kind', { kind: 'poll', prompt: 'x' }, 'kind: must be one of query, select, form'],
    ['no prompt', { kind: 'query' }, 'prompt: required'],
    ['a blank prompt', { kind: 'query', prompt: '   ' }, 'prompt: must not be empty'],
    ['a prompt too long', { kind: 'query', prompt: 'p'.repeat(2001) }, 'prompt: must be at most 2000 characters'],
    [
      'a select without options',
      { kind: 'select', prompt: 'x' },
      'options: a select question needs at least 2 options',
    ],
    [
      'a select with one option',
      { kind: 'select', prompt: 'x', options: ['a'] },
      'options: a select question needs at least 2 options',
    ],
    [
      'a select with a repeated option',
      { kind: 'select', prompt: 'x', options: ['a', ' a'] },
      'options: "a" appears twice',
    ],
    [
      'a select with a blank option',
      { kind: 'select', prompt: 'x', options: ['a', ' '] },
      'options.1: must not be empty',
    ],
    [
      'a select with 21 options',
      { kind: 'select', prompt: 'x', options: options(21) },
      'options: must have at most 20 options',
    ],
    [
      'multiple not a boolean',
      { kind: 'select', prompt: 'x', options: ['a', 'b'], multiple: 'yes' },
      'multiple: must be true or false',
    ],
    ['a form without fields', { kind: 'form', prompt: 'x' }, 'fields: a form needs at least one field'],
    ['a form with no fields', form(), 'fields: a form needs at least one field'],
    [
      'a form with 21 fields',
      form(...Array.from({ length: 21 }, (_, i) => ({ key: `f${i}`, label: 'F', type: 'input' }))),
      'fields: must have at most 20 fields',
    ],
    ['a field that is not an object', form('name'), 'fields.0: must be an object'],
    ['a repeated key', form(input, { ...input }), 'fields.1.key: "name" is used by another field'],
    [
      'a key that is not an identifier',
      form({ ...input, key: '1st name' }),
      'fields.0.key: must start with a letter or _ and hold only letters, digits and _',
    ],
    ['a blank label', form({ ...input, label: ' ' }), 'fields.0.label: must not be empty'],
    [
      'an unknown field type',
      form({ ...input, type: 'color' }),
      'fields.0.type: must be one of input, textarea, number, select, multiselect, boolean, date',
    ],
    ['required not a boolean', form({ ...input, required: 'yes' }), 'fields.0.required: must be true or false'],
    [
      'a select field without options',
      form({ ...input, type: 'select' }),
      'fields.0.options: a select field needs options',
    ],
    [
      'a multiselect field with empty options',
      form({ ...input, type: 'multiselect', options: [] }),
      'fields.0.options: a multiselect field needs options',
    ],
    [
      'a select field with a repeated option',
      form({ ...input, type: 'select', options: ['a', 'a'] }),
      'fields.0.options: "a" appears twice',
    ],
    [
      'min greater than max',
      form({ ...input, type: 'number', min: 2, max: 1 }),
      'fields.0.min: must not be greater than max',
    ],
    ['maxLength zero', form({ ...input, maxLength: 0 }), 'fields.0.maxLength: must be positive'],
    ['maxLength fractional', form({ ...input, maxLength: 2.5 }), 'fields.0.maxLength: must be a whole number'],
    [
      'a default of no supported type',
      form({ ...input, default: { a: 1 } }),
      'fields.0.default: must be a string, a number, true/false or a list of strings',
    ],
    ['a text default of the wrong type', form({ ...input, default: 3 }), 'fields.0.default: must be a string'],
    [
      'a text default too long',
      form({ ...input, maxLength: 3, default: 'abcd' }),
      'fields.0.default: must be at most 3 characters',
    ],
    [
      'a number default as a string',
      form({ ...input, type: 'number', default: '3' }),
      'fields.0.default: must be a number',
    ],
    [
      'a number default below min',
      form({ ...input, type: 'number', min: 5, default: 4 }),
      'fields.0.default: must be at least 5',
    ],
    [
      'a number default above max',
      form({ ...input, type: 'number', max: 5, default: 6 }),
      'fields.0.default: must be at most 5',
    ],
    [
      'a select default not among the options',
      form({ ...input, type: 'select', options: ['a', 'b'], default: 'c' }),
      'fields.0.default: "c" is not one of the options',
    ],
    [
      'a multiselect default not a subset',
      form({ ...input, type: 'multiselect', options: ['a', 'b'], default: ['a', 'z'] }),
      'fields.0.default: "z" is not one of the options',
    ],
    [
      'a boolean default as a string',
      form({ ...input, type: 'boolean', default: 'true' }),
      'fields.0.default: must be true or false',
    ],
    [
      'a date default badly written',
      form({ ...input, type: 'date', default: '2024/01/02' }),
      'fields.0.default: must be a date as YYYY-MM-DD',
    ],
    [
      'a date default not in the calendar',
      form({ ...input, type: 'date', default: '2023-02-29' }),
      'fields.0.default: "2023-02-29" is not a calendar date',
    ],
  ])('%s', (_name, args, error) => {
    expect(rejected(args)).toEqual([error]);
  });

  test('invalid JSON gives one error saying so', () => {
    expect(parseAskArgs('{"kind": "query",')).toEqual({ ok: false, errors: ['arguments: not valid JSON'] });
    expect(parseAskArgs('')).toEqual({ ok: false, errors: ['arguments: not valid JSON'] });
  });

  test('every broken rule is reported at once', () => {
    const errors = rejected({ ...form({ ...input, type: 'select' }, { ...input, label: '' }), prompt: '' });
    expect([...errors].sort()).toEqual(
      [
        'prompt: must not be empty',
        'fields.0.options: a select field needs options',
        'fields.1.label: must not be empty',
        'fields.1.key: "name" is used by another field',
      ].sort(),
    );
  });
});

describe('askUserTool', () => {
  test('its parameters are the JSON Schema derived from the zod schema (input side)', () => {
    expect(askUserTool().name).toBe('ask_user');
    expect(askUserTool().parameters).toEqual(z.toJSONSchema(askArgsSchema, { io: 'input' }));
    expect(askUserTool().parameters).toMatchObject({ type: 'object', required: ['kind', 'prompt'] });
  });

  test('its description tells the model when to ask and names the three kinds', () => {
    for (const word of ['query', 'select', 'form', 'options', 'fields']) {
      expect(askUserTool().description).toContain(word);
    }
  });
});

describe('toInteractionSpec', () => {
  test.each<[AskRequest, string]>([
    [{ kind: 'query', prompt: 'Q' }, 'ask.query'],
    [{ kind: 'select', prompt: 'S', options: ['a', 'b'], multiple: true }, 'ask.select'],
    [{ kind: 'form', prompt: 'F', fields: [{ key: 'k', label: 'K', type: 'boolean', required: true }] }, 'ask.form'],
  ])('%j opens an interaction of kind %s with the same question', (request, kind) => {
    const { kind: _askKind, ...question } = request;
    expect(toInteractionSpec(request)).toEqual({ kind, ...question });
  });

  test('the interaction does not share arrays with the request', () => {
    const request: AskRequest = { kind: 'select', prompt: 'S', options: ['a', 'b'], multiple: false };
    const spec = toInteractionSpec(request);
    request.options.push('c');
    expect(spec).toMatchObject({ options: ['a', 'b'] });
  });
});
