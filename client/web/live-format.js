/**
 * How the live panels show a model call once it is complete: a planner's JSON reply as the
 * plan's list of steps, a tool call's streamed JSON arguments as one `name(key: value, …)` line.
 */
import { h } from './dom.js';

/** The purposes whose reply is a plan (JSON), shown as its list of steps once complete. */
export const PLAN_PURPOSES = new Set(['plan', 'replan']);

/**
 * Replaces a finished planner call's JSON text with the plan it holds, as a list of its steps
 * (`id: title`, and what each waits for); a reply that is not a plan stays as it came.
 * @param {HTMLElement} body
 */
export function showPlan(body) {
  const texts = [...body.querySelectorAll('.live-text')];
  /** @type {any} */
  let plan;
  try {
    plan = JSON.parse(texts.map((t) => t.textContent ?? '').join(''));
  } catch {
    return;
  }
  if (!plan || !Array.isArray(plan.steps)) return;
  const items = plan.steps.map((/** @type {any} */ s) => {
    const after = Array.isArray(s.depends_on) && s.depends_on.length ? ` (after ${s.depends_on.join(', ')})` : '';
    return h('li', { 'data-step-id': String(s.id ?? ''), text: `${s.id ?? '?'}: ${s.title ?? ''}${after}` });
  });
  for (const t of texts) t.remove();
  body.append(h('ol', { class: 'live-plan' }, items));
}

/** How much of one argument's value a tool line shows. */
const ARG_CHARS = 60;

/**
 * Once its call is complete, shows a tool call's streamed JSON arguments as one line,
 * `name(key: value, …)`, each value cut to a few words; arguments that are not a JSON object stay as they came.
 * @param {Element} tool
 */
export function showCall(tool) {
  const args = tool.querySelector('.tool-args');
  if (!args || tool.classList.contains('tool-line')) return;
  /** @type {any} */
  let parsed;
  try {
    parsed = JSON.parse(args.textContent || '{}');
  } catch {
    return;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return;
  const shown = Object.entries(parsed).map(([key, value]) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const cut = text.length > ARG_CHARS ? `${text.slice(0, ARG_CHARS)}…` : text;
    return `${key}: ${cut.replace(/\s+/g, ' ')}`;
  });
  tool.classList.add('tool-line');
  args.replaceWith(h('span', { class: 'tool-args', title: args.textContent ?? '', text: `(${shown.join(', ')})` }));
}
