/**
 * Form rules (`ask.form`): what one value must be for its field, and what a whole
 * `{ values }` answer must be for its form. Shared by the answer check and by the `ask_user`
 * schema, which holds an LLM-written `default` to the very same rules. Pure functions: this
 * runs inside the workflow sandbox.
 */
import type { FormField } from './ask-request-schema';

/** A value a form field can hold. */
export type FieldValue = NonNullable<FormField['default']>;

/** One value checked against its field: the normalised value, or the broken rule (no path). */
export type FieldCheck = { ok: true; value: FieldValue } | { ok: false; error: string };

/**
 * A whole form answer checked: the normalised values (defaults filled), or one `path: message`
 * per broken rule and the first broken rule's path (`values.<key>`).
 */
export type FormCheck =
  { ok: true; values: Record<string, FieldValue> } | { ok: false; errors: string[]; field: string };

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Quotes a value for a message, escaping as JSON does. */
const quote = (value: string): string => JSON.stringify(value);

const pass = (value: FieldValue): FieldCheck => ({ ok: true, value });
const fail = (error: string): FieldCheck => ({ ok: false, error });

/**
 * The first value that occurs more than once, if any.
 * @param values strings compared exactly.
 */
export function firstDuplicate(values: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  return undefined;
}

/**
 * Checks one present value against its field's type rules (text within `maxLength`, a finite
 * number within `min`/`max`, options, booleans, `YYYY-MM-DD` dates). Text is trimmed; numbers
 * must be numbers, not numeric strings. Whether the field is required is the caller's concern.
 */
export function checkFieldValue(field: FormField, value: unknown): FieldCheck {
  switch (field.type) {
    case 'input':
    case 'textarea':
      return checkText(field, value);
    case 'number':
      return checkNumber(field, value);
    case 'select':
      return checkChoice(field, value);
    case 'multiselect':
      return checkChoices(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? pass(value) : fail('must be true or false');
    case 'date':
      return checkDate(value);
  }
}

function checkText(field: FormField, value: unknown): FieldCheck {
  if (typeof value !== 'string') return fail('must be a string');
  const text = value.trim();
  if (field.maxLength !== undefined && text.length > field.maxLength) {
    return fail(`must be at most ${field.maxLength} characters`);
  }
  return pass(text);
}

function checkNumber(field: FormField, value: unknown): FieldCheck {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail('must be a number');
  if (field.min !== undefined && value < field.min) return fail(`must be at least ${field.min}`);
  if (field.max !== undefined && value > field.max) return fail(`must be at most ${field.max}`);
  return pass(value);
}

function checkChoice(field: FormField, value: unknown): FieldCheck {
  if (typeof value !== 'string') return fail('must be one of the options');
  if (!(field.options ?? []).includes(value)) return fail(`${quote(value)} is not one of the options`);
  return pass(value);
}

function checkChoices(field: FormField, value: unknown): FieldCheck {
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    return fail('must be a list of options');
  }
  const stray = value.find((v) => !(field.options ?? []).includes(v));
  if (stray !== undefined) return fail(`${quote(stray)} is not one of the options`);
  const twice = firstDuplicate(value);
  if (twice !== undefined) return fail(`${quote(twice)} is chosen twice`);
  return pass([...value]);
}

function checkDate(value: unknown): FieldCheck {
  const match = typeof value === 'string' ? DATE_PATTERN.exec(value) : null;
  if (typeof value !== 'string' || match === null) return fail('must be a date as YYYY-MM-DD');
  const [year, month, day] = match.slice(1).map(Number);
  if (year === undefined || month === undefined || day === undefined) return fail('must be a date as YYYY-MM-DD');
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return fail(`${quote(value)} is not a calendar date`);
  }
  return pass(value);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Absent, `null` or blank text: what a form sends for a field left empty. */
function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Checks a form answer's `values` against the form's fields: unknown keys are rejected, required
 * fields must be present (not empty, and a required multiselect needs a choice), every present
 * value must satisfy its field; a missing optional field gets its `default` (or stays absent).
 */
export function validateFormValues(fields: readonly FormField[], values: Record<string, unknown>): FormCheck {
  const known = new Set(fields.map((field) => field.key));
  const broken: [key: string, message: string][] = Object.keys(values)
    .filter((key) => !known.has(key))
    .map((key) => [key, 'not a field of this form']);
  const entries: [string, FieldValue][] = [];
  for (const field of fields) {
    const value = Object.hasOwn(values, field.key) ? values[field.key] : undefined;
    const checked = checkEntry(field, value);
    if (!checked.ok) broken.push([field.key, checked.error]);
    else if (checked.value !== undefined) entries.push([field.key, checked.value]);
  }
  const [first] = broken;
  if (first === undefined) return { ok: true, values: Object.fromEntries(entries) }; // own keys, even `__proto__`
  return {
    ok: false,
    errors: broken.map(([key, message]) => `values.${key}: ${message}`),
    field: `values.${first[0]}`,
  };
}

function checkEntry(field: FormField, value: unknown): { ok: true; value?: FieldValue } | { ok: false; error: string } {
  if (isEmpty(value)) return field.required ? fail('required') : { ok: true, value: field.default };
  const checked = checkFieldValue(field, value);
  if (checked.ok && field.required && Array.isArray(checked.value) && checked.value.length === 0) {
    return fail('required');
  }
  return checked;
}
