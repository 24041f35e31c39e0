/**
 * The start form's "Options" section: the agent input's model, system prompt, tools, limits and
 * modes (docs/contracts.md#agent-input). An empty field is not sent, so the default applies;
 * the values are checked by the server, whose refusal names the field, shown beside it.
 */
import { h } from './dom.js';

/**
 * The options' fields: input `name`, label, where the value goes in the agent input, and how the
 * text becomes a value. `planning` ones are refused with a graph: they are disabled and not sent.
 * @type {{ name: string, label: string, path: string, kind: 'text' | 'textarea' | 'number' | 'list' | 'minutes' | 'choice', choices?: string[], planning?: boolean }[]}
 */
const FIELDS = [
  { name: 'modelName', label: 'Model name', path: 'model.name', kind: 'text' },
  { name: 'systemPrompt', label: 'System prompt', path: 'systemPrompt', kind: 'textarea' },
  { name: 'tools', label: 'Tools (comma-separated; empty: all)', path: 'tools', kind: 'list' },
  { name: 'maxStepRounds', label: 'Max step rounds', path: 'limits.maxStepRounds', kind: 'number' },
  { name: 'maxParallelSteps', label: 'Max parallel steps', path: 'limits.maxParallelSteps', kind: 'number' },
  { name: 'tokenBudget', label: 'Token budget', path: 'limits.tokenBudget', kind: 'number' },
  { name: 'costBudgetUsd', label: 'Cost budget (USD)', path: 'limits.costBudgetUsd', kind: 'number' },
  { name: 'deadlineMinutes', label: 'Deadline (minutes)', path: 'limits.deadlineMs', kind: 'minutes' },
  {
    name: 'replanAfter',
    label: 'Replan after',
    path: 'mode.replanAfter',
    kind: 'choice',
    choices: ['listed', 'each'],
    planning: true,
  },
  {
    name: 'onRoundsExhausted',
    label: 'When a step runs out of rounds',
    path: 'limits.onRoundsExhausted',
    kind: 'choice',
    choices: ['fail', 'deliver'],
  },
  {
    name: 'onStepFailure',
    label: 'When a step fails',
    path: 'onStepFailure',
    kind: 'choice',
    choices: ['fail', 'continue', 'ask'],
  },
];

/** @param {(typeof FIELDS)[number]} field */
const numeric = (field) => field.kind === 'number' || field.kind === 'minutes';

/**
 * One field's row: label, control, and a message line for the server's refusal.
 * @param {(typeof FIELDS)[number]} field
 */
function row(field) {
  const id = `opt-${field.name}`;
  const attrs = { id, name: field.name, 'data-field': field.path };
  const control =
    field.kind === 'textarea'
      ? h('textarea', { ...attrs, rows: 3 })
      : field.kind === 'choice'
        ? h('select', attrs, [
            h('option', { value: '', text: 'default' }),
            ...(field.choices ?? []).map((c) => h('option', { value: c, text: c })),
          ])
        : // Numbers are checked by the server (its message names the field), not by the browser.
          h('input', { ...attrs, type: 'text', inputmode: numeric(field) ? 'decimal' : undefined });
  return h('div', { class: 'field', 'data-row': field.path }, [
    h('label', { for: id, text: field.label }),
    control,
    h('span', { class: 'error field-error', role: 'alert' }),
  ]);
}

/**
 * A field's value from its text; `undefined` when empty (not sent). A number that does not
 * parse is sent as its text, so the server's refusal names the field.
 * @param {(typeof FIELDS)[number]} field
 * @param {string} text
 */
function valueOf(field, text) {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (field.kind === 'list')
    return trimmed
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  if (numeric(field)) {
    const n = Number(trimmed);
    if (!Number.isFinite(n)) return trimmed;
    return field.kind === 'minutes' ? Math.round(n * 60_000) : n;
  }
  return field.kind === 'textarea' ? text : trimmed;
}

/**
 * Puts `value` at a dotted `path` of `target`.
 * @param {Record<string, any>} target
 * @param {string} path
 * @param {unknown} value
 */
function setPath(target, path, value) {
  const keys = path.split('.');
  const last = /** @type {string} */ (keys.pop());
  let at = target;
  for (const key of keys) at = at[key] ??= {};
  at[last] = value;
}

/**
 * The Options section and its readers.
 * @returns {{ element: HTMLElement, addTo: (body: Record<string, any>, withGraph: boolean) => void, setGraph: (on: boolean) => void, showError: (field: string | undefined, message: string) => boolean, clearErrors: () => void }}
 */
export function startOptions() {
  const element = h('details', { class: 'start-options' }, [h('summary', { text: 'Options' }), ...FIELDS.map(row)]);
  /** @param {string} name */
  const control = (name) => /** @type {HTMLInputElement} */ (element.querySelector(`[name=${name}]`));
  return {
    element,
    addTo(body, withGraph) {
      for (const field of FIELDS) {
        if (field.planning && withGraph) continue;
        const value = valueOf(field, control(field.name).value);
        if (value !== undefined) setPath(body, field.path, value);
      }
    },
    setGraph(on) {
      for (const field of FIELDS) if (field.planning) control(field.name).disabled = on;
    },
    showError(field, message) {
      const at = [...element.querySelectorAll('[data-row]')].find(
        (r) => field !== undefined && r.getAttribute('data-row') === field,
      );
      if (!at) return false;
      element.open = true;
      at.querySelector('[data-field]')?.setAttribute('aria-invalid', 'true');
      const line = at.querySelector('.field-error');
      if (line) line.textContent = message;
      return true;
    },
    clearErrors() {
      for (const line of element.querySelectorAll('.field-error')) line.textContent = '';
      for (const input of element.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
    },
  };
}
