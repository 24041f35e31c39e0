/**
 * Older turns of a conversation on the page: a read of the thread shows its newest 50 turns and
 * says how many older ones it keeps (`olderTurns`); a button loads them a page at a time
 * (`GET /api/threads/:id?before=<oldest shown>`) above those shown. Turns loaded so are kept
 * like the others (the same map), so later reads leave them be.
 */
import { h } from './dom.js';
import { turnView } from './thread-turn.js';

/**
 * The button's place, and what the view tells it.
 * @param {HTMLElement} turnsBox where the turns are shown, oldest first
 * @param {Map<string, import('./thread-turn.js').TurnView>} turns the turns shown, by message id
 * @param {(before: string) => Promise<any>} readBefore a page of the thread's turns before that message
 * @param {(messageId: string) => Promise<string>} whole a message's whole text
 * @returns {{ el: HTMLElement, firstRead: (view: any) => void }}
 */
export function olderTurns(turnsBox, turns, readBefore, whole) {
  const el = h('div', { class: 'turns-older' });
  /** The oldest message shown, and whether the thread keeps older ones. */
  let oldest = { messageId: '', more: false };

  const show = () => {
    if (!oldest.more) {
      el.replaceChildren();
      return;
    }
    const button = h('button', { type: 'button', class: 'turns-older-button', text: 'show older messages' });
    button.addEventListener('click', () => void load().catch(() => undefined));
    el.replaceChildren(button);
  };

  const load = async () => {
    const page = await readBefore(oldest.messageId);
    const made = page.turns
      .filter((/** @type {any} */ t) => !turns.has(t.messageId))
      .map((/** @type {any} */ t) => {
        const view = turnView(t, whole);
        turns.set(t.messageId, view);
        return view.el;
      });
    turnsBox.prepend(...made);
    oldest = { messageId: page.turns[0]?.messageId ?? oldest.messageId, more: (page.olderTurns ?? 0) > 0 };
    show();
  };

  return {
    el,
    firstRead: (view) => {
      if (oldest.messageId !== '' || !view.turns[0]) return;
      oldest = { messageId: view.turns[0].messageId, more: (view.olderTurns ?? 0) > 0 };
      show();
    },
  };
}
