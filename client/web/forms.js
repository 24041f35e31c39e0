/**
 * One control per open interaction: its kind's control (kind-controls.js) in a box with the
 * prompt and the server's verdict. A refusal is read by its code: `NOT_OPEN` closes the control
 * (the question was answered elsewhere or expired), `INVALID_ANSWER` shows the server's message —
 * for a form also under the field the error names. A kind this page has no control for (a worker
 * newer than the page) says so and takes the answer as JSON.
 */
import { button, h } from './dom.js';
import { KIND_CONTROLS } from './kind-controls.js';

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
  const control = Object.hasOwn(KIND_CONTROLS, interaction.kind) ? KIND_CONTROLS[interaction.kind] : jsonControl;
  box.append(...control(interaction, submit).filter((el) => el !== null), error);
  return box;
}

/**
 * For a kind without a control of its own: says so, and sends an answer written as JSON.
 * @param {Interaction} interaction
 * @param {(answer: unknown) => void} submit
 */
function jsonControl(interaction, submit) {
  const json = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { rows: 4, class: 'code', 'aria-label': 'answer JSON' })
  );
  const jsonError = h('p', { class: 'error' });
  const send = () => {
    jsonError.textContent = '';
    try {
      submit(JSON.parse(json.value));
    } catch (err) {
      jsonError.textContent = `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
    }
  };
  return [
    h('p', {
      class: 'unknown-kind',
      text: `This page has no control for ${interaction.kind} interactions: write the answer as JSON (see docs/contracts.md, Interactions and answers).`,
    }),
    json,
    jsonError,
    button('Send', send, 'primary'),
  ];
}
