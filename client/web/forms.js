/**
 * One control per open interaction: a text box (ask.query), options (ask.select), a typed form
 * with client-side checks (ask.form), the plan check, a tool approval bound to its digest, a step
 * failure and a token budget. A refusal is read by its code: `NOT_OPEN` closes the control (the
 * question was answered elsewhere or expired), `INVALID_ANSWER` shows the server's message — for
 * a form also under the field the error names. A form's own checks run before anything is sent.
 */
import { confirmingButton } from './confirm.js';
import { h } from './dom.js';
import { checkFormField } from './rules.js';

/** @typedef {{ id: string, kind: string, prompt: string, stepId?: string, [key: string]: any }} Interaction */
/** @typedef {(answer: unknown) => Promise<void>} Send */

/** Where a form field's value sits in an answer, as a refusal's `field` names it. */
const FIELD_PREFIX = 'answer.values.';

/**
 * The control for `interaction`; `send` posts the answer and throws on rejection.
 * @param {Interaction} interaction
 * @param {Send} send
 * @returns {HTMLElement}
 */
export function interactionControl(interaction, send) {
  const error = h('p', { class: 'error server-error', role: 'alert' });
  const box = h('section', { class: `interaction kind-${interaction.kind.replace('.', '-')}` }, [
    h('h3', { text: `${interaction.kind}${interaction.stepId ? ` · step ${interaction.stepId}` : ''}` }),
    h('p', { class: 'prompt', text: interaction.prompt }),
  ]);
  box.dataset.interactionId = interaction.id;
  box.dataset.kind = interaction.kind;
  /** Sends, disabling the buttons meanwhile; shows the server's message when rejected. */
  const submit = async (/** @type {unknown} */ answer) => {
    error.textContent = '';
    const buttons = [...box.querySelectorAll('button')];
    buttons.forEach((b) => (b.disabled = true));
    try {
      await send(answer);
      box.classList.add('sent');
      box.append(h('p', { class: 'muted', text: 'Answer sent.' }));
    } catch (err) {
      const { code, field } = /** @type {{ code?: string, field?: string }} */ (err ?? {});
      error.textContent = err instanceof Error ? err.message : String(err);
      if (code === 'NOT_OPEN') {
        box.classList.add('closed');
        return; // nothing more to send here; the next refresh drops the control
      }
      if (code === 'INVALID_ANSWER' && field?.startsWith(FIELD_PREFIX)) {
        const key = field.slice(FIELD_PREFIX.length).split('.')[0] ?? '';
        const row = [...box.querySelectorAll('[data-key]')].find((el) => el.getAttribute('data-key') === key);
        const under = row?.querySelector('.field-error');
        if (under) under.textContent = error.textContent;
      }
      buttons.forEach((b) => (b.disabled = false));
    }
  };
  const body = BUILDERS[interaction.kind]?.(interaction, submit) ?? [h('p', { text: 'Unsupported interaction.' })];
  box.append(...body, error);
  return box;
}

/** @param {string} label @param {() => void} onclick @param {string} [cls] */
const button = (label, onclick, cls = '') => h('button', { type: 'button', class: cls, text: label, onclick });

/** @type {Record<string, (i: Interaction, submit: (answer: unknown) => void) => HTMLElement[]>} */
const BUILDERS = {
  'ask.query': (_i, submit) => {
    const text = h('textarea', { name: 'text', rows: 3, 'aria-label': 'answer' });
    return [text, button('Send', () => submit({ text: /** @type {HTMLTextAreaElement} */ (text).value }), 'primary')];
  },
  'ask.select': (i, submit) => {
    const type = i.multiple ? 'checkbox' : 'radio';
    const name = `select-${i.id}`;
    const options = i.options.map((/** @type {string} */ o) =>
      h('label', { class: 'option' }, [h('input', { type, name, value: o }), ` ${o}`]),
    );
    const chosen = () =>
      options
        .map((l) => /** @type {HTMLInputElement} */ (l.firstChild))
        .filter((c) => c.checked)
        .map((c) => c.value);
    return [h('div', { class: 'options' }, options), button('Send', () => submit({ values: chosen() }), 'primary')];
  },
  'ask.form': (i, submit) => formControl(i.fields, submit),
  'plan.check': (i, submit) => {
    const feedback = /** @type {HTMLTextAreaElement} */ (h('textarea', { rows: 2, 'aria-label': 'feedback' }));
    const json = /** @type {HTMLTextAreaElement} */ (
      h('textarea', { rows: 10, class: 'code', 'aria-label': 'plan JSON' })
    );
    json.value = JSON.stringify(i.plan, null, 2);
    const jsonError = h('p', { class: 'error' });
    const edit = () => {
      jsonError.textContent = '';
      try {
        submit({ decision: 'edit', plan: JSON.parse(json.value) });
      } catch (err) {
        jsonError.textContent = `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
      }
    };
    const steps = i.plan.steps.map((/** @type {any} */ s) =>
      h('li', { text: `${s.id}: ${s.title}${s.depends_on.length ? ` (after ${s.depends_on.join(', ')})` : ''}` }),
    );
    return [
      h('ol', { class: 'plan-steps' }, steps),
      h('div', { class: 'actions' }, [button('Confirm plan', () => submit({ decision: 'confirm' }), 'primary')]),
      h('details', {}, [
        h('summary', { text: 'Ask for changes' }),
        feedback,
        button('Revise', () => submit({ decision: 'revise', feedback: feedback.value })),
      ]),
      h('details', {}, [h('summary', { text: 'Edit as JSON' }), json, jsonError, button('Save edited plan', edit)]),
      // Apart from the plan's own buttons, and only after a second click: it ends the agent.
      h('div', { class: 'actions cancel-plan' }, [
        confirmingButton({
          label: 'Cancel agent…',
          question: 'Cancel this agent instead of running the plan?',
          yes: 'Yes, cancel the agent',
          no: 'Keep the plan check',
          onConfirm: () => submit({ decision: 'cancel' }),
        }),
      ]),
    ];
  },
  'tool.approval': (i, submit) => {
    const reason = /** @type {HTMLInputElement} */ (
      h('input', { type: 'text', placeholder: 'reason (for a rejection)', 'aria-label': 'reason' })
    );
    const decide = (/** @type {string} */ decision) => () =>
      submit({
        decision,
        digest: i.digest,
        ...(decision === 'reject' && reason.value ? { reason: reason.value } : {}),
      });
    return [
      h('p', {}, [h('strong', { text: 'Tool: ' }), h('code', { class: 'tool-name', text: i.tool })]),
      i.why ? h('p', { class: 'muted', text: `Why: ${i.why}` }) : null,
      h('pre', { class: 'code tool-args', text: JSON.stringify(i.arguments, null, 2) }),
      reason,
      h('div', { class: 'actions' }, [
        button('Approve', decide('approve'), 'primary'),
        button('Reject', decide('reject'), 'danger'),
      ]),
    ].filter((el) => el !== null);
  },
  'step.failure': (i, submit) => [
    h('pre', { class: 'code', text: i.error }),
    h('div', { class: 'actions' }, [
      button('Retry', () => submit({ decision: 'retry' }), 'primary'),
      button('Skip', () => submit({ decision: 'skip' })),
      button('Abort', () => submit({ decision: 'abort' }), 'danger'),
    ]),
  ],
  deadline: (_i, submit) => {
    const minutes = /** @type {HTMLInputElement} */ (
      h('input', { type: 'number', min: 1, value: '30', 'aria-label': 'minutes more' })
    );
    return [
      h('p', { text: 'The deadline was reached. Extend it by some minutes, or stop the agent.' }),
      minutes,
      h('div', { class: 'actions' }, [
        button('Extend', () => submit({ decision: 'extend', deadlineMs: Number(minutes.value) * 60_000 }), 'primary'),
        button('Stop', () => submit({ decision: 'stop' }), 'danger'),
      ]),
    ];
  },
  budget: (i, submit) => {
    // A cost budget alone is raised in dollars; otherwise the token budget is.
    const dollars = i.tokenBudget === undefined && i.costBudgetUsd !== undefined;
    const raise = /** @type {HTMLInputElement} */ (
      h('input', {
        type: 'number',
        min: dollars ? (i.costUsd ?? 0) : i.usedTokens + 1,
        step: dollars ? 'any' : '1',
        'aria-label': 'new budget',
      })
    );
    // Twice what was used when that is over the budget already, so the offered raise is accepted.
    raise.value = String(
      dollars ? Math.max(i.costBudgetUsd, i.costUsd ?? 0) * 2 : Math.max(i.tokenBudget, i.usedTokens) * 2,
    );
    const cost = typeof i.costUsd === 'number' ? `$${i.costUsd.toFixed(4)}` : 'unknown';
    const key = dollars ? 'costBudgetUsd' : 'tokenBudget';
    return [
      h('p', {
        text: dollars
          ? `Spent ${cost} of $${i.costBudgetUsd} (${i.usedTokens} tokens).`
          : `Used ${i.usedTokens} of ${i.tokenBudget} tokens (cost ${cost}).`,
      }),
      raise,
      h('div', { class: 'actions' }, [
        button('Raise budget', () => submit({ decision: 'raise', [key]: Number(raise.value) }), 'primary'),
        button('Stop', () => submit({ decision: 'stop' }), 'danger'),
      ]),
    ];
  },
};

/**
 * A typed form (ask.form): one input per field, checked here by the rules the agent applies
 * (rules.js is built from them), with a message under each broken field.
 * @param {any[]} fields
 * @param {(answer: unknown) => void} submit
 */
function formControl(fields, submit) {
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
 * workflows/interactions/validate-form.ts): `{ value }` to send, or `{ error }` to show.
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
