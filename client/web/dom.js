/**
 * Tiny DOM helpers for the Cairn page: `h()` builds elements (text is always set as text,
 * never parsed as HTML), `button()`, plus the Temporal UI link builder.
 */

/**
 * Builds an element.
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs] `class`, `text`, `on<event>` handlers, else attributes
 * @param {(Node | string | null | undefined | false)[]} [children]
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') el.textContent = String(value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/**
 * A button that runs `onclick`.
 * @param {string} label
 * @param {() => void} onclick
 * @param {string} [cls]
 */
export const button = (label, onclick, cls = '') => h('button', { type: 'button', class: cls, text: label, onclick });

/** The Temporal UI base URL, from the page's meta tag. */
export function temporalUiBase() {
  const meta = document.querySelector('meta[name="cairn-temporal-ui"]');
  return (meta?.getAttribute('content') ?? 'http://127.0.0.1:8233').replace(/\/+$/, '');
}

/**
 * A link to a workflow in the Temporal UI.
 * @param {string} workflowId
 * @param {string} [label]
 */
export function temporalLink(workflowId, label = 'Temporal UI') {
  const href = `${temporalUiBase()}/namespaces/default/workflows/${encodeURIComponent(workflowId)}`;
  return h('a', { href, target: '_blank', rel: 'noopener', class: 'temporal-link', text: label });
}

/**
 * A short local time for a timestamp in ms.
 * @param {number} ms
 */
export function clock(ms) {
  return new Date(ms).toLocaleTimeString();
}
