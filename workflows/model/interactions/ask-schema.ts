/**
 * The `ask_user` tool (docs/contracts.md#llm-protocol): the zod schema its arguments
 * must satisfy, the tool definition offered to the model (its JSON Schema derived from that zod
 * schema, never written twice), parsing of the model's raw arguments into an `AskRequest` with
 * one `path: message` per broken rule, and the mapping to an interaction. Pure: runs inside the
 * workflow sandbox.
 */
import { z } from 'zod';
import { ASK_KINDS, type AskRequest, type FormField } from './ask-request-schema';
import { FORM_FIELD_TYPES } from './form-field-types';
import { checkFieldValue, firstDuplicate } from './validate-form';
import { issueLines } from '../../base/issue-lines';

const MAX_PROMPT = 2000;
const MAX_OPTIONS = 20;
const MAX_FIELDS = 20;
const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** zod error options: `required` when the value is absent, else `must be <what>`. */
const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'required' : `must be ${what}`),
});

const text = () => z.string(expected('a string')).trim().min(1, 'must not be empty');

const optionSchema = text();

const formFieldSchema = z
  .object(
    {
      key: z
        .string(expected('a string'))
        .regex(KEY_PATTERN, 'must start with a letter or _ and hold only letters, digits and _')
        .describe('Property name of this field in the answer'),
      label: text().describe('What the human sees next to the field'),
      type: z
        .enum(FORM_FIELD_TYPES, { error: `must be one of ${FORM_FIELD_TYPES.join(', ')}` })
        .describe('input: one line of text; textarea: several lines; date: YYYY-MM-DD; the rest as named'),
      required: z.boolean(expected('true or false')).default(false),
      default: z
        .union([z.string(), z.number(), z.boolean(), z.array(z.string())], {
          error: 'must be a string, a number, true/false or a list of strings',
        })
        .optional()
        .describe('Prefilled value; must itself satisfy the field rules'),
      min: z.number(expected('a number')).optional().describe('number fields: smallest allowed value'),
      max: z.number(expected('a number')).optional().describe('number fields: largest allowed value'),
      maxLength: z
        .number(expected('a number'))
        .int('must be a whole number')
        .positive('must be positive')
        .optional()
        .describe('input / textarea fields: most characters allowed'),
      options: z
        .array(optionSchema, expected('a list of strings'))
        .optional()
        .describe('select / multiselect fields: the choices'),
    },
    { error: 'must be an object' },
  )
  .superRefine(checkFieldRules);

/** Schema of the `ask_user` tool arguments; parsing applies every rule, defaults included. */
export const askArgsSchema = z
  .object(
    {
      kind: z
        .enum(ASK_KINDS, { error: `must be one of ${ASK_KINDS.join(', ')}` })
        .describe('query: free-text answer; select: pick from options; form: several typed fields'),
      prompt: text()
        .max(MAX_PROMPT, `must be at most ${MAX_PROMPT} characters`)
        .describe('The question, in the language of the task'),
      options: z
        .array(optionSchema, expected('a list of strings'))
        .max(MAX_OPTIONS, `must have at most ${MAX_OPTIONS} options`)
        .optional()
        .describe('select only: 2 or more distinct choices'),
      multiple: z.boolean(expected('true or false')).default(false).describe('select only: allow several choices'),
      fields: z
        .array(formFieldSchema, expected('a list of fields'))
        .max(MAX_FIELDS, `must have at most ${MAX_FIELDS} fields`)
        .optional()
        .describe('form only: the fields, each with a unique key'),
    },
    { error: 'must be an object' },
  )
  .superRefine(checkKindRules);

type ParsedField = z.output<typeof formFieldSchema>;
type ParsedArgs = z.output<typeof askArgsSchema>;

/** Cross-property rules of one form field: options where needed, `min ≤ max`, a valid default. */
function checkFieldRules(field: ParsedField, ctx: z.RefinementCtx): void {
  const problems: [string, string][] = [];
  const choice = field.type === 'select' || field.type === 'multiselect';
  const twice = firstDuplicate(field.options ?? []);
  if (choice && (field.options ?? []).length === 0) problems.push(['options', `a ${field.type} field needs options`]);
  if (twice !== undefined) problems.push(['options', `${JSON.stringify(twice)} appears twice`]);
  if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
    problems.push(['min', 'must not be greater than max']);
  }
  // A default is only judged against rules that are themselves sound.
  if (problems.length === 0 && field.default !== undefined) {
    const checked = checkFieldValue(toFormField(field), field.default);
    if (!checked.ok) problems.push(['default', checked.error]);
  }
  for (const [path, message] of problems) ctx.addIssue({ code: 'custom', path: [path], message });
}

/** Rules that depend on `kind`: a select needs options, a form needs fields with unique keys. */
function checkKindRules(args: ParsedArgs, ctx: z.RefinementCtx): void {
  const add = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (args.kind === 'select') {
    const options = args.options ?? [];
    const twice = firstDuplicate(options);
    if (twice !== undefined) add(['options'], `${JSON.stringify(twice)} appears twice`);
    else if (options.length < 2) add(['options'], 'a select question needs at least 2 options');
  }
  if (args.kind === 'form') {
    const fields = args.fields ?? [];
    if (fields.length === 0) add(['fields'], 'a form needs at least one field');
    const seen = new Set<string>();
    fields.forEach((field, index) => {
      if (seen.has(field.key)) add(['fields', index, 'key'], `${JSON.stringify(field.key)} is used by another field`);
      seen.add(field.key);
    });
  }
}

/** The field's rules, keeping only the properties its type uses (the default is added by the caller). */
function toFormField(field: ParsedField): FormField {
  const out: FormField = { key: field.key, label: field.label, type: field.type, required: field.required };
  if (field.type === 'number') {
    if (field.min !== undefined) out.min = field.min;
    if (field.max !== undefined) out.max = field.max;
  }
  if ((field.type === 'input' || field.type === 'textarea') && field.maxLength !== undefined) {
    out.maxLength = field.maxLength;
  }
  if (field.type === 'select' || field.type === 'multiselect') out.options = field.options ?? [];
  return out;
}

/** A parsed field as the interaction keeps it: irrelevant properties dropped, the default normalised. */
function toCheckedFormField(field: ParsedField): FormField {
  const out = toFormField(field);
  if (field.default === undefined) return out;
  const checked = checkFieldValue(out, field.default);
  if (checked.ok) out.default = checked.value;
  return out;
}

function toAskRequest(args: ParsedArgs): AskRequest {
  switch (args.kind) {
    case 'query':
      return { kind: 'query', prompt: args.prompt };
    case 'select':
      return { kind: 'select', prompt: args.prompt, options: args.options ?? [], multiple: args.multiple };
    case 'form':
      return { kind: 'form', prompt: args.prompt, fields: (args.fields ?? []).map(toCheckedFormField) };
  }
}

/** Result of parsing the model's `ask_user` arguments. */
export type ParseAskResult = { ok: true; request: AskRequest } | { ok: false; errors: string[] };

/**
 * Parses the JSON text a model wrote as `ask_user` arguments. Invalid JSON gives one error saying
 * so; otherwise each broken rule gives one `path: message` (e.g. `fields.0.options: a select field
 * needs options`), ready to go back to the model as the tool error.
 */
export function parseAskArgs(raw: string): ParseAskResult {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // The engine's own parse message is left out: it may change between Node versions.
    return { ok: false, errors: ['arguments: not valid JSON'] };
  }
  return parseAskRequest(json, 'arguments');
}

/**
 * Parses an already decoded `ask_user` request, every rule applied.
 * @param root what to call the value itself in a message.
 * @param under where the request sits in a larger value, put before each path.
 */
export function parseAskRequest(value: unknown, root: string, under?: string): ParseAskResult {
  const parsed = askArgsSchema.safeParse(value);
  if (!parsed.success) return { ok: false, errors: issueLines(parsed.error, root, under) };
  return { ok: true, request: toAskRequest(parsed.data) };
}
