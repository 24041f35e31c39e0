/**
 * A tool approval for people: how a write would change its file (the worker's preview: a diff
 * against the current file), and the arguments one row each — a text value with its line breaks
 * (a file a write would create reads as the file), anything else as indented JSON, not one long
 * JSON line. Values only ever become text, never markup.
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

/** The class of a diff line, by its first character. */
const DIFF_LINE = /** @type {Record<string, string>} */ ({ '+': 'diff-add', '-': 'diff-del', '@': 'diff-hunk' });

/**
 * How the write would change its file, as the worker saw it when the approval opened: a new
 * file, no change, or the diff against the current file (each line coloured by what it does).
 * @param {{ path: string, change: 'new' | 'same' | 'diff', text?: string, cut?: boolean } | undefined} preview
 * @returns {HTMLElement | null}
 */
export function approvalChange(preview) {
  if (!preview) return null;
  if (preview.change === 'new') {
    return h('p', { class: 'approval-change', 'data-change': 'new' }, [
      'Creates ',
      h('code', { text: preview.path }),
      ' (no such file yet).',
    ]);
  }
  if (preview.change === 'same') {
    return h('p', { class: 'approval-change', 'data-change': 'same' }, [
      h('code', { text: preview.path }),
      ' already holds exactly this: no change.',
    ]);
  }
  const lines = (preview.text ?? '').split('\n').map((line) => {
    const cls = line.startsWith('+++') || line.startsWith('---') ? 'diff-file' : (DIFF_LINE[line[0] ?? ''] ?? '');
    return h('span', { class: cls, text: `${line}\n` });
  });
  return h('div', { class: 'approval-change', 'data-change': 'diff' }, [
    h('p', {}, ['Changes ', h('code', { text: preview.path }), ':']),
    h('pre', { class: 'code diff' }, lines),
    preview.cut ? h('p', { class: 'muted', text: 'The diff is cut here.' }) : null,
  ]);
}
