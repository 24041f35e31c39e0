/**
 * A button for an act that cannot be undone (cancelling an agent): the first click only asks —
 * the button gives way to the question, a button that does it and one that keeps things as
 * they are. Nothing is sent until the second, explicit click. The element keeps its state when
 * its owner re-renders around it, so a refresh never answers the question for you.
 */
import { h } from './dom.js';

/**
 * @param {{ label: string, question: string, yes: string, no: string, onConfirm: () => void }} options
 *   `label` opens the question; `yes` does it; `no` goes back.
 * @returns {HTMLElement}
 */
export function confirmingButton({ label, question, yes, no, onConfirm }) {
  const box = h('span', { class: 'confirming' });
  const ask = () =>
    box.replaceChildren(
      h('span', { class: 'confirm-question', role: 'alert', text: question }),
      h('button', {
        type: 'button',
        class: 'danger',
        text: yes,
        onclick: () => {
          closed();
          onConfirm();
        },
      }),
      h('button', { type: 'button', text: no, onclick: () => closed() }),
    );
  const closed = () => box.replaceChildren(h('button', { type: 'button', class: 'danger', text: label, onclick: ask }));
  closed();
  return box;
}
