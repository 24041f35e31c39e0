/**
 * One turn of a conversation on the page: the message with its sender, kind, what became of it
 * (`disposition`) and its status; the reply (a chat answer, or a task turn's final answer) as
 * sanitised Markdown; and for a task turn its agent — the agent page itself (agent-view.js),
 * embedded, so that turn's plan check, questions, approvals and live steps show and are answered
 * right here — with a link to the agent's own page.
 *
 * A running turn's agent is embedded at once; a finished one's only when its box is opened, so a
 * long conversation does not hold an event stream per turn (streams per person are limited).
 * A message whose text the thread's read cut (past 2,000 characters: `textChars` says how long it
 * is) shows the cut with a button that loads the whole text from its own route.
 * Elements are kept across refreshes: an embedded agent, its half-typed answers and an open box
 * survive every poll.
 */
import { renderAgentPage } from './agent-view.js';
import { h } from './dom.js';
import { renderMarkdown } from './markdown.js';

/** Turn statuses after which nothing about the turn changes any more. */
const SETTLED = new Set(['completed', 'failed', 'stopped', 'cancelled', 'delivered', 'rejected']);

/**
 * @typedef {object} TurnView
 * @property {HTMLElement} el
 * @property {(turn: any) => void} update shows `turn` (the same message, read again)
 * @property {(disposition: string) => void} sent shows what `send` answered for it
 * @property {(text: string) => void} writing shows a chat reply as it is written, until the recorded one
 * @property {() => void} stop stops the embedded agent's live updates
 */

/**
 * The message's text: whole, or cut with a button that loads the whole of it.
 * @param {any} turn
 * @param {(messageId: string) => Promise<string>} whole
 */
function messageText(turn, whole) {
  const text = h('div', { class: 'turn-text', text: turn.text });
  if (typeof turn.textChars !== 'number') return text;
  const more = h('button', { type: 'button', class: 'turn-text-whole', text: `show all ${turn.textChars} characters` });
  more.addEventListener('click', () => {
    more.setAttribute('disabled', '');
    whole(turn.messageId).then(
      (full) => text.replaceChildren(full),
      () => more.removeAttribute('disabled'),
    );
  });
  return h('div', {}, [text, more]);
}

/**
 * The view of one turn.
 * @param {any} turn a turn of `GET /api/threads/:id`
 * @param {(messageId: string) => Promise<string>} whole the whole text of a message the read cut
 * @returns {TurnView}
 */
export function turnView(turn, whole) {
  const meta = h('p', { class: 'turn-meta' });
  const reply = h('div', { class: 'turn-reply' });
  const agentBox = h('div', { class: 'turn-agent-box' });
  const el = h('article', { class: 'turn', 'data-message-id': turn.messageId }, [
    meta,
    messageText(turn, whole),
    reply,
    agentBox,
  ]);
  /** What `send` answered, until the thread's own record says it. */
  let sentDisposition = '';
  let shownReply = '';
  /** @type {{ agentId: string, details: HTMLDetailsElement, stop: () => void } | undefined} */
  let agent;

  let current = turn;
  let wasSettled = SETTLED.has(turn.status);

  /** @param {any} t */
  const update = (t) => {
    current = t;
    const disposition = t.disposition ?? sentDisposition;
    el.dataset.status = t.status;
    if (t.kind) el.dataset.kind = t.kind;
    if (disposition) el.dataset.disposition = disposition;
    // A steered message went into another turn's agent: it links there, it does not embed it again.
    const steered = disposition === 'steered';
    const line = [
      h('span', { class: 'turn-by', text: t.by ?? 'you' }),
      t.kind ? h('span', { class: 'badge turn-kind', text: t.kind }) : null,
      disposition ? h('span', { class: 'badge turn-disposition', text: disposition }) : null,
      h('span', { class: `status status-${t.status} turn-status`, text: t.status }),
      t.reason ? h('span', { class: 'muted turn-reason', text: `routed: ${t.reason}` }) : null,
      t.agentId
        ? h('a', {
            href: `/agents/${encodeURIComponent(t.agentId)}`,
            'data-nav': true,
            class: 'turn-agent-link',
            text: steered ? 'steered into this agent' : 'agent page',
          })
        : null,
    ];
    meta.replaceChildren(...line.filter((part) => part !== null));
    const text = t.reply ?? '';
    if (text !== shownReply || (t.error && !reply.querySelector('.turn-error'))) {
      shownReply = text;
      const parts = [];
      if (t.error) parts.push(h('p', { class: 'error turn-error', text: t.error }));
      if (text) {
        const md = h('div', { class: 'markdown turn-answer' });
        md.innerHTML = renderMarkdown(text);
        parts.push(h('p', { class: 'turn-by', text: t.kind === 'task' ? 'answer' : 'reply' }), md);
      }
      reply.replaceChildren(...parts);
    }
    const settled = SETTLED.has(t.status);
    if (t.agentId && !steered && !agent) agent = embedAgent(agentBox, t.agentId, !settled);
    // Once the turn has ended its answer is above: the agent folds away (open it to look again).
    else if (agent && settled && !wasSettled) agent.details.open = false;
    wasSettled = settled;
  };
  update(turn);
  return {
    el,
    update,
    sent: (disposition) => {
      sentDisposition = disposition;
      update(current);
    },
    writing: (text) => {
      // The thread's record wins: once it has the reply, the live text is not shown again.
      if (shownReply !== '' || current.reply) return;
      const md = h('div', { class: 'markdown turn-answer turn-writing' });
      md.innerHTML = renderMarkdown(text);
      reply.replaceChildren(h('p', { class: 'turn-by', text: 'reply (writing…)' }), md);
    },
    stop: () => agent?.stop(),
  };
}

/**
 * The agent page of `agentId` inside a box of its own: shown (and live) at once when `open`, else
 * the first time the box is opened.
 * @param {HTMLElement} host
 * @param {string} agentId
 * @param {boolean} open
 */
function embedAgent(host, agentId, open) {
  const body = h('div', { class: 'turn-agent' });
  const details = /** @type {HTMLDetailsElement} */ (
    h('details', { class: 'turn-agent-details', 'data-agent-id': agentId, open }, [
      h('summary', { text: `Agent ${agentId}` }),
      body,
    ])
  );
  host.replaceChildren(details);
  let stop = () => {};
  let shown = false;
  const show = () => {
    if (shown || !details.open) return;
    shown = true;
    stop = renderAgentPage(body, agentId);
  };
  details.addEventListener('toggle', show);
  show();
  return { agentId, details, stop: () => stop() };
}
