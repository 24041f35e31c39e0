/**
 * The conversations list (`/threads`): every thread from `GET /api/threads`, newest first, with
 * its title (the model-written one, else its first message), whether it is open and when it
 * started; and a "New conversation" button that opens an empty conversation view (the thread
 * itself is created by its first message). Read again every few seconds while shown.
 */
import { api } from './api.js';
import { button, clock, h } from './dom.js';

/** How often the list is read again while shown. */
const LIST_REFRESH_MS = 5000;

/**
 * Renders the list into `root`; returns a function that stops its refreshing.
 * @param {HTMLElement} root
 * @param {(path: string) => void} navigate
 */
export function renderThreadList(root, navigate) {
  const list = h('div', { id: 'threads' }, [h('p', { class: 'muted', text: 'Loading…' })]);
  root.replaceChildren(
    h('section', { class: 'card' }, [
      h('div', { class: 'card-head' }, [
        h('h2', { text: 'Conversations' }),
        button('New conversation', () => navigate('/threads/new'), 'primary new-thread'),
      ]),
      list,
    ]),
  );
  const load = () =>
    api('/api/threads')
      .then(({ threads }) => list.replaceChildren(threadList(threads)))
      .catch((err) => list.replaceChildren(h('p', { class: 'error', text: err.message })));
  void load();
  const timer = setInterval(load, LIST_REFRESH_MS);
  return () => clearInterval(timer);
}

/** @param {{ id: string, title: string, status: string, startedAt: string, closedAt?: string }[]} threads */
function threadList(threads) {
  if (threads.length === 0) return h('p', { class: 'muted', text: 'No conversations yet.' });
  const rows = threads.map((t) => {
    const open = t.status === 'RUNNING';
    return h('li', { class: 'thread-row', 'data-id': t.id }, [
      h('span', { class: `phase ${open ? 'phase-executing' : 'phase-completed'}`, text: open ? 'open' : 'closed' }),
      h('a', { href: `/threads/${encodeURIComponent(t.id)}`, 'data-nav': true, text: t.title || t.id }),
      h('time', {
        class: 'muted',
        title: t.closedAt ? `closed ${t.closedAt}` : `started ${t.startedAt}`,
        text: clock(Date.parse(t.closedAt ?? t.startedAt)),
      }),
    ]);
  });
  return h('ul', { class: 'agent-list thread-list' }, rows);
}
