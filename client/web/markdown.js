/**
 * Model-written Markdown as safe HTML for the page. The model's text is untrusted (a page it
 * fetched can steer it), so DOMPurify strips scripts and handlers as usual and, beyond that,
 * every form control and all styling: a `<form>` could post to another site, a fake button or
 * styled overlay could pass for the page's own controls. Task-list boxes become ☐ / ☑ text.
 */
import DOMPurify from '/vendor/dompurify.js';
import { Marked } from '/vendor/marked.js';

const FORBID_TAGS = ['form', 'input', 'button', 'textarea', 'select', 'option', 'optgroup', 'datalist', 'style'];
const FORBID_ATTR = ['style', 'action', 'formaction', 'form'];

const markdown = new Marked({
  renderer: {
    /** @param {{ checked: boolean }} box */
    checkbox: ({ checked }) => (checked ? '☑ ' : '☐ '),
  },
});

/**
 * Renders `text` as sanitised HTML.
 * @param {string} text
 * @returns {string}
 */
export function renderMarkdown(text) {
  return DOMPurify.sanitize(String(markdown.parse(text, { async: false })), { FORBID_TAGS, FORBID_ATTR });
}
