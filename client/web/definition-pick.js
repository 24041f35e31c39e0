/**
 * The start form's choice of agent definition (`GET /api/agent-definitions`), offered when the
 * server has any beside the built-in `cairn`: none starts as before; a definition fills the
 * planning checks from its `mode` and, unless it lists `mode` as overridable, locks them (the
 * server refuses a start that changes what the definition does not let it). Browser ES module.
 */
import { h } from './dom.js';

/**
 * @typedef {{ name: string, description: string, version: string, label?: string,
 *   mode?: Record<string, unknown>, overridable?: string[] }} DefinitionSummary
 */

/** The planning checks a definition's mode sets, with the defaults a start without one gets. */
const CHECKS = /** @type {const} */ ([
  ['plan', true],
  ['ask', false],
  ['confirmPlan', false],
]);

/**
 * The picker, and what a start's body gets from it.
 * @param {HTMLElement} form the start form (its planning checks are set while a definition is picked)
 */
export function definitionPick(form) {
  const element = h('div', { class: 'definition-pick' });
  /** @type {DefinitionSummary[]} */
  let offered = [];
  /** @type {HTMLSelectElement | undefined} */
  let select;
  const picked = () => offered.find((d) => d.name === select?.value);
  const box = (/** @type {string} */ name) =>
    /** @type {HTMLInputElement | null} */ (form.querySelector(`input[name=${name}]`));

  /** Sets the checks from the picked definition's mode, locked unless a start may change it. */
  const apply = () => {
    const definition = picked();
    const mode = definition?.mode ?? {};
    const locked = definition !== undefined && !(definition.overridable ?? []).includes('mode');
    for (const [name, fallback] of CHECKS) {
      const input = box(name);
      if (!input) continue;
      if (definition) input.checked = typeof mode[name] === 'boolean' ? Boolean(mode[name]) : fallback;
      input.disabled = locked || 'graph' in mode;
    }
  };

  /** @param {DefinitionSummary[]} definitions every definition the server lists */
  const offer = (definitions) => {
    offered = definitions.filter((d) => d.name !== 'cairn');
    element.dataset.definitions = String(offered.length);
    if (offered.length === 0) return;
    const none = h('option', { value: '', text: 'none: the built-in agent' });
    const options = offered.map((d) =>
      h('option', {
        value: d.name,
        title: `version ${d.version}`,
        text: `${d.name}${d.label ? ` (${d.label})` : ''}: ${d.description}`,
      }),
    );
    select = /** @type {HTMLSelectElement} */ (
      h('select', { id: 'definition', name: 'definition' }, [none, ...options])
    );
    select.addEventListener('change', apply);
    element.replaceChildren(h('label', { for: 'definition', text: 'Agent definition' }), select);
  };

  /**
   * Puts the picked definition in `body`; its mode stays the definition's unless a start may change it.
   * @param {Record<string, any>} body
   */
  const addTo = (body) => {
    const definition = picked();
    if (!definition) return;
    body.definition = definition.name;
    if (!(definition.overridable ?? []).includes('mode')) delete body.mode;
  };

  return { element, offer, addTo };
}
