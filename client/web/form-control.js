/**
 * The typed form of an `ask.form` interaction: one input per field, checked in the page by the
 * agent's own form rules (rules.js, built from workflows/model/interactions/validate-form.ts) before
 * anything is sent, with a message under each broken field.
 */
import { button, h } from './dom.js';
import { checkFormField } from './rules.js';

/**
 * The form of these fields and its Send button; `submit` gets `{ values }` once every field passes.
 * @param {any[]} fields
 * @param {(answer: unknown) => void} submit
 */
export function formControl(fields, submit) {
  const rows = fields.map((field) => fieldRow(field));
  const send = () => {
    /** @type {Record<string, unknown>} */
    const values = {};
    let ok = true;
    for (const row of rows) {
      const { value, error } = row.read();
      row.message.textContent = error ?? '';
      if (error) ok = false;
      else if (value !== undefined) values[row.key] = value;
    }
    if (ok) submit({ values });
  };
  const form = h(
    'form',
    { class: 'typed-form', novalidate: true },
    rows.map((r) => r.element),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    send();
  });
  return [form, button('Send', send, 'primary')];
}

/** @param {any} field */
function fieldRow(field) {
  const id = `field-${field.key}-${Math.random().toString(36).slice(2, 8)}`;
  const message = h('span', { class: 'error field-error', role: 'alert' });
  const input = fieldInput(field, id);
  const label = h('label', { for: id, text: `${field.label}${field.required ? ' *' : ''}` });
  const element = h('div', { class: `field field-${field.type}`, 'data-key': field.key }, [
    label,
    input.element,
    message,
  ]);
  return { key: field.key, element, message, read: () => checkField(field, input.read()) };
}

/**
 * @param {any} field
 * @param {string} id
 * @returns {{ element: HTMLElement, read: () => unknown }}
 */
function fieldInput(field, id) {
  const d = field.default;
  if (field.type === 'multiselect' || field.type === 'boolean') {
    const opts = field.type === 'boolean' ? [''] : (field.options ?? []);
    const boxes = opts.map((/** @type {string} */ o) =>
      h('input', {
        type: 'checkbox',
        value: o,
        checked: field.type === 'boolean' ? d === true : Array.isArray(d) && d.includes(o),
      }),
    );
    boxes[0]?.setAttribute('id', id);
    const element = h(
      'span',
      { class: 'choices' },
      boxes.map((b, n) => h('label', {}, [b, ` ${opts[n]}`])),
    );
    const checked = () =>
      boxes
        .filter((b) => /** @type {HTMLInputElement} */ (b).checked)
        .map((b) => /** @type {HTMLInputElement} */ (b).value);
    return { element, read: () => (field.type === 'boolean' ? checked().length > 0 : checked()) };
  }
  /** @type {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} */
  let el;
  if (field.type === 'textarea') el = /** @type {HTMLTextAreaElement} */ (h('textarea', { id, rows: 3 }));
  else if (field.type === 'select') {
    const options = ['', ...(field.options ?? [])].map((o) => h('option', { value: o, text: o || '—' }));
    el = /** @type {HTMLSelectElement} */ (h('select', { id }, options));
  } else {
    const type = field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text';
    el = /** @type {HTMLInputElement} */ (h('input', { id, type, name: field.key }));
  }
  if (d !== undefined) el.value = String(d);
  return { element: el, read: () => el.value };
}

/**
 * One field's input checked by the agent's own form rules (rules.js, built from
 * workflows/model/interactions/validate-form.ts): `{ value }` to send, or `{ error }` to show.
 * @param {any} field
 * @param {unknown} raw what the input holds: text, a list of choices, or true/false
 * @returns {{ value?: unknown, error?: string }}
 */
export function checkField(field, raw) {
  const checked = checkFormField(field, typed(field, raw));
  return checked.ok ? { value: checked.value } : { error: sentence(checked.error) };
}

/**
 * The input's value as its field's type takes it: a number field's text as a number (text that
 * is no number stays text, for the rules to refuse). Empty text stays empty.
 * @param {any} field
 * @param {unknown} raw
 */
function typed(field, raw) {
  if (field.type !== 'number' || typeof raw !== 'string' || raw.trim() === '') return raw;
  const n = Number(raw);
  return Number.isNaN(n) ? raw : n;
}

/** A rule's message as a sentence: `must be at most 20` → `Must be at most 20.` @param {string} message */
const sentence = (message) => `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
