/**
 * A tool approval's arguments for people: one row per argument, a text value with its line
 * breaks (a file a write would create reads as the file), anything else as indented JSON — not
 * one long JSON line. Values only ever become text, never markup.
 */
import { h } from './dom.js';

/**
 * The arguments of a call awaiting approval.
 * @param {unknown} args
 * @returns {HTMLElement}
 */
export function approvalArguments(args) {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return h('pre', { class: 'code tool-args', text: JSON.stringify(args, null, 2) });
  }
  const rows = Object.entries(args).flatMap(([key, value]) => [
    h('dt', {}, [h('code', { text: key })]),
    h('dd', { 'data-arg': key }, [
      h('pre', { class: 'code', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }),
    ]),
  ]);
  return h('dl', { class: 'approval-args tool-args' }, rows);
}
