/**
 * `ask.form` at the prompt, field by field: each entry is checked against its field's rules as
 * it is typed (the same rules the workflow's validator applies), and after a rejection only the
 * field the validator named (the coded error's `answer.values.<key>`) is asked again, the other
 * entries kept.
 */
import { checkFieldValue } from '../../../workflows/model/interactions/validate-form';
import type { FormField, Interaction } from '../../../workflows/model/interactions/interaction-types';
import type { Check, Choice, Prompter } from '../../cli/prompter';

type FormInteraction = Extract<Interaction, { kind: 'ask.form' }>;

/** Where a form field's value sits in an answer, as a rejection names it. */
const FIELD_PREFIX = 'answer.values.';

/**
 * The form fields a rejection's field names: `answer.values.<key>` (or a path below it) → that
 * key, if it is one of the form's; anything else (the whole answer, `answer.values`) → none.
 */
export function rejectedKeys(fields: readonly FormField[], rejectedField: string): string[] {
  if (!rejectedField.startsWith(FIELD_PREFIX)) return [];
  const named = rejectedField.slice(FIELD_PREFIX.length);
  return fields.map((f) => f.key).filter((key) => named === key || named.startsWith(`${key}.`));
}

/**
 * Asks the form's fields and returns `{ values }`; `previous` are the last entries, if any, and
 * `rejectedField` the field their rejection named: only that one is asked again when it is a form field.
 */
export async function askForm(
  ask: Prompter,
  form: FormInteraction,
  previous?: Record<string, unknown>,
  rejectedField?: string,
): Promise<{ values: Record<string, unknown> }> {
  const again = previous && rejectedField !== undefined ? rejectedKeys(form.fields, rejectedField) : [];
  const values: Record<string, unknown> = again.length > 0 && previous ? { ...previous } : {};
  for (const field of form.fields) {
    if (again.length > 0 && !again.includes(field.key)) continue;
    const value = await askField(ask, field, previous?.[field.key] ?? field.default);
    if (value === undefined) delete values[field.key];
    else values[field.key] = value;
  }
  return { values };
}

/** A check for one entry: empty is fine unless required, else the field's own rules. */
function fieldCheck<T>(field: FormField, isEmpty: (value: T) => boolean): Check<T> {
  return (value) => {
    if (isEmpty(value)) return field.required ? 'required' : true;
    const checked = checkFieldValue(field, value);
    return checked.ok ? true : checked.error;
  };
}

const blank = (value: string) => value.trim() === '';

/** Asks one field in the prompt that fits its type; `undefined` for an optional field left empty. */
async function askField(ask: Prompter, field: FormField, current: unknown): Promise<unknown> {
  const label = `${field.label}${field.required ? '' : ' (optional)'}`;
  switch (field.type) {
    case 'number': {
      const value = await ask.number(label, {
        ...(typeof current === 'number' ? { default: current } : {}),
        required: field.required,
        validate: fieldCheck<number | undefined>(field, (v) => v === undefined),
      });
      return value;
    }
    case 'boolean':
      return ask.confirm(label, { default: typeof current === 'boolean' ? current : false });
    case 'select':
      return askChoice(ask, field, label, current);
    case 'multiselect':
      return ask.multiSelect(
        label,
        (field.options ?? []).map((value) => ({ value })),
        {
          defaults: Array.isArray(current) ? current.filter((v): v is string => typeof v === 'string') : [],
          validate: fieldCheck<string[]>(field, (v) => field.required && v.length === 0),
        },
      );
    default: {
      const hint = field.type === 'date' ? `${label} [YYYY-MM-DD]` : label;
      const text = await ask.text(hint, {
        ...(typeof current === 'string' ? { default: current } : {}),
        validate: fieldCheck<string>(field, blank),
      });
      return blank(text) ? undefined : text.trim();
    }
  }
}

/** A single choice; an optional field also offers "(none)". */
async function askChoice(ask: Prompter, field: FormField, label: string, current: unknown): Promise<unknown> {
  const NONE = '\u0000none';
  const choices: Choice[] = (field.options ?? []).map((value) => ({ value }));
  if (!field.required) choices.push({ value: NONE, name: '(none)' });
  const chosen = await ask.select(label, choices, {
    ...(typeof current === 'string' && field.options?.includes(current) ? { default: current } : {}),
  });
  return chosen === NONE ? undefined : chosen;
}
