/**
 * The conversation view (`/threads/:id`, or `/threads/new` before the first message): the turns
 * in order (thread-turn.js: each message, its reply, a task turn's agent inline) and a send box —
 * the text, its kind (auto lets the thread's router decide, or chat / task), the agent's checks
 * for a task, and while a task turn runs what to do with the message (queue / steer / reject).
 * A new conversation is opened empty (`POST /api/threads`) when its first message is sent, and
 * that message, like every later one, goes to `POST /api/threads/:id/messages` from the
 * conversation's own view — so its reply streams as later ones do — and what became of each
 * (`disposition`) shows on it.
 *
 * The thread is read again (`GET /api/threads/:id`) every POLL_MS while the view is shown: a
 * poll is simple and survives reconnects. A chat reply shows as it is written, from the thread's
 * live stream (`GET /api/threads/:id/stream`: its `chat` calls' text deltas, by message), until
 * the thread's record of the reply replaces it. Leaving the view stops the polling, the stream
 * and every embedded agent's live updates. A read shows the newest 50 turns: older ones
 * (`olderTurns`) load a page at a time with `?before=`, above the rest, on request.
 */
import { ApiError, api, apiForm } from './api.js';
import { h, temporalLink } from './dom.js';
import { followLive } from './live-stream.js';
import { startFiles, startForm } from './start-files.js';
import { turnView } from './thread-turn.js';
import { olderTurns } from './thread-older.js';

/** How often an open conversation is read again. */
const POLL_MS = 1500;

/**
 * The first message of a conversation just opened, by thread id: the thread's own view says
 * under its send box what became of it once a read shows it routed.
 * @type {Map<string, string>}
 */
const firstMessages = new Map();

/**
 * Renders conversation `id` (null: a new one, not yet opened) into `root`; returns a function
 * that stops its polling and live updates.
 * @param {HTMLElement} root
 * @param {string | null} id
 * @param {(path: string, replace?: boolean) => void} navigate
 */
export function renderThreadPage(root, id, navigate) {
  const header = h('div', { class: 'thread-header' });
  const turnsBox = h('div', { class: 'turns', id: 'turns' });
  const box = sendBox();
  /** @type {Map<string, import('./thread-turn.js').TurnView>} */
  const turns = new Map();
  const path = () => `/api/threads/${encodeURIComponent(id ?? '')}`;
  /** @param {string} messageId */
  const whole = async (messageId) =>
    String((await api(`${path()}/messages/${encodeURIComponent(messageId)}`)).text ?? '');
  const older = olderTurns(
    turnsBox,
    turns,
    (before) => api(`${path()}?before=${encodeURIComponent(before)}&limit=50`),
    whole,
  );
  root.replaceChildren(
    h('p', {}, [h('a', { href: '/threads', 'data-nav': true, text: '← all conversations' })]),
    header,
    h('section', { class: 'card' }, [older.el, turnsBox]),
    h('section', { class: 'card' }, [h('h2', { text: 'Send' }), box.form]),
  );
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let stopped = false;

  /** @param {any} view */
  const render = (view) => {
    root.dataset.threadStatus = view.status;
    header.replaceChildren(
      h('h1', { class: 'task thread-title', text: view.title || 'Conversation' }),
      h('p', { class: 'meta' }, [
        h('span', {
          class: `phase ${view.status === 'open' ? 'phase-executing' : 'phase-completed'}`,
          text: view.status,
        }),
        view.closedReason ? h('span', { class: 'muted', text: view.closedReason }) : null,
        h('code', { class: 'thread-id', text: view.id }),
        temporalLink(view.id, 'Open in Temporal UI'),
      ]),
      ...(view.summary ? [summaryNote(view.summary)] : []),
    );
    older.firstRead(view);
    for (const turn of view.turns) {
      const shown = turns.get(turn.messageId);
      if (shown) shown.update(turn);
      else {
        const made = turnView(turn, whole);
        turns.set(turn.messageId, made);
        turnsBox.append(made.el);
        const partial = writing.get(turn.messageId);
        if (partial) made.writing(partial.text);
      }
    }
    if (view.turns.length === 0) turnsBox.replaceChildren(h('p', { class: 'muted none', text: 'No messages yet.' }));
    else turnsBox.querySelector('.none')?.remove();
    const first = firstMessages.get(view.id);
    const routed = view.turns.find((/** @type {any} */ t) => t.messageId === first && t.disposition);
    if (first && routed) {
      firstMessages.delete(view.id);
      box.said(`${first}: ${routed.disposition}`);
    }
    box.setRunning(view.turns.some((/** @type {any} */ t) => t.kind === 'task' && t.status === 'running'));
    box.setClosed(view.status === 'closed');
  };

  /** Reads the thread once and shows it. */
  const readOnce = async () => {
    if (id === null) return;
    try {
      render(await api(`/api/threads/${encodeURIComponent(id)}`));
      delete root.dataset.stale;
    } catch (err) {
      // No worker answered in time: keep what is shown and read again at the next tick.
      if (err instanceof ApiError && err.code === 'AGENT_UNAVAILABLE') root.dataset.stale = 'true';
      else header.replaceChildren(h('p', { class: 'error', text: err instanceof Error ? err.message : String(err) }));
    }
  };
  /** @type {Promise<void> | null} */
  let reading = null;
  /** One read at a time: a read asked for during another waits for that one. */
  const read = () => (reading ??= readOnce().finally(() => (reading = null)));
  const loop = async () => {
    await read();
    if (!stopped) timer = setTimeout(() => void loop(), POLL_MS);
  };

  /** A message as JSON, or with files as a multipart form (the message as its `input` part). */
  const post = (
    /** @type {string} */ path,
    /** @type {Record<string, unknown>} */ body,
    /** @type {File[]} */ files,
  ) => (files.length ? apiForm(path, startForm(body, files)) : api(path, { method: 'POST', body }));
  box.onSend(async (body, files) => {
    if (id === null) {
      // Opened with its first message, which the server checks before it starts the thread: a
      // refused one opens nothing. Answered once recorded; the thread's stream, followed from its
      // oldest item, still shows the reply as it is written.
      const opened = await post('/api/threads?wait=recorded', body, files);
      if (opened.messageId) firstMessages.set(opened.id, opened.messageId);
      navigate(`/threads/${encodeURIComponent(opened.id)}`, true);
      return 'Conversation opened';
    }
    const result = await post(`/api/threads/${encodeURIComponent(id)}/messages`, body, files);
    await read();
    // A read already under way when the message was sent may not have it yet: read once more.
    if (!turns.has(result.messageId)) await read();
    turns.get(result.messageId)?.sent(result.disposition);
    return `${result.messageId}: ${result.disposition}`;
  });

  /** Chat replies being written, by message: the text of the newest attempt of its call. */
  /** @type {Map<string, { attempt: number, text: string }>} */
  const writing = new Map();
  /** @param {import('./live-stream.js').LiveEvent} event */
  const live = (event) => {
    const d = event.data;
    if (event.type === 'reset') writing.clear();
    if (event.type !== 'delta' || d.purpose !== 'chat' || d.channel !== 'text' || !d.messageId) return;
    const seen = writing.get(d.messageId);
    // A retried call starts over: its failed attempt's text is dropped.
    const text = seen && seen.attempt === d.attempt ? seen.text + d.text : d.text;
    writing.set(d.messageId, { attempt: d.attempt, text });
    const shown = turns.get(d.messageId);
    // A reply to a message not shown yet: read the thread now rather than at the next poll.
    if (shown) shown.writing(text);
    else void read();
  };
  let stopLive = () => {};

  if (id === null) {
    header.replaceChildren(h('h1', { class: 'task thread-title', text: 'New conversation' }));
    turnsBox.replaceChildren(h('p', { class: 'muted none', text: 'Say something to start.' }));
  } else {
    stopLive = followLive(id, { event: live, status: () => undefined }, 'threads');
    void loop();
  }
  return () => {
    stopped = true;
    stopLive();
    clearTimeout(timer);
    delete root.dataset.stale;
    delete root.dataset.threadStatus;
    for (const turn of turns.values()) turn.stop();
  };
}

/**
 * The send box. `onSend(fn)` sets what a submit does: `fn(body, files)` resolves to a line saying
 * what became of the message (shown under the box) or throws the server's refusal (shown too).
 * Files dropped on (or chosen in) its drop zone go with the message, stored in the thread's folder.
 */
function sendBox() {
  const text = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { id: 'message', name: 'text', rows: 3, required: true, placeholder: 'Ask, or give a task…' })
  );
  const select = (/** @type {string} */ name, /** @type {[string, string][]} */ options) =>
    /** @type {HTMLSelectElement} */ (
      h(
        'select',
        { id: `send-${name}`, name },
        options.map(([value, label]) => h('option', { value, text: label })),
      )
    );
  const kind = select('kind', [
    ['', 'auto: the thread decides'],
    ['chat', 'chat: answer in words'],
    ['task', 'task: run an agent'],
  ]);
  const policy = select('policy', [
    ['queue', 'queue: next turn'],
    ['steer', 'steer the running task'],
    ['reject', 'reject it'],
  ]);
  const check = (/** @type {string} */ name, /** @type {string} */ label) =>
    h('label', { class: 'check' }, [h('input', { type: 'checkbox', name }), ` ${label}`]);
  const policyRow = h('label', { class: 'send-policy', hidden: true }, ['While a task runs: ', policy]);
  const taskChecks = h('div', { class: 'checks task-checks' }, [
    check('confirmPlan', 'I confirm the plan (task)'),
    check('ask', 'may ask questions (task)'),
  ]);
  const files = startFiles('send');
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Send' });
  const result = h('p', { class: 'muted send-result', role: 'status' });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { id: 'thread-send' }, [
    text,
    h('div', { class: 'send-options' }, [h('label', { for: 'send-kind', text: 'Kind ' }), kind, policyRow]),
    taskChecks,
    files.element,
    submit,
    result,
    error,
  ]);
  kind.addEventListener('change', () => (taskChecks.hidden = kind.value === 'chat'));
  let running = false;
  let sending = false;
  let closed = false;
  /** @type {(body: Record<string, unknown>, files: File[]) => Promise<string>} */
  let send = async () => '';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const flag = (/** @type {string} */ name) =>
      /** @type {HTMLInputElement} */ (form.querySelector(`input[name=${name}]`)).checked;
    /** @type {Record<string, unknown>} */
    const body = { text: text.value };
    if (kind.value) body.kind = kind.value;
    if (running) body.policy = policy.value;
    if (kind.value !== 'chat' && (flag('confirmPlan') || flag('ask')))
      body.mode = { confirmPlan: flag('confirmPlan'), ask: flag('ask') };
    deliver(body, files.files());
  });
  /**
   * Sends a message and says what became of it under the box.
   * @param {Record<string, unknown>} body
   * @param {File[]} attached
   */
  const deliver = (body, attached) => {
    error.textContent = '';
    result.textContent = 'Sending…';
    sending = true;
    submit.disabled = true;
    send(body, attached)
      .then((line) => {
        result.textContent = line;
        // Cleared only as sent: what was typed or added while it was sending stays.
        if (text.value === body.text) text.value = '';
        const now = files.files();
        if (now.length === attached.length && now.every((file, i) => file === attached[i])) files.clear();
      })
      .catch((err) => {
        result.textContent = '';
        error.textContent = err instanceof Error ? err.message : String(err);
        // A refused message comes back into the box, to mend and send again.
        if (text.value === '' && typeof body.text === 'string') text.value = body.text;
        if (files.files().length === 0) files.add(attached);
      })
      .finally(() => {
        sending = false;
        submit.disabled = closed;
      });
  };
  return {
    form,
    /** @param {(body: Record<string, unknown>, files: File[]) => Promise<string>} fn */
    onSend: (fn) => (send = fn),
    /** @param {string} line what became of a message sent elsewhere (a new conversation's first) */
    said: (line) => {
      if (!sending) result.textContent = line;
    },
    /** @param {boolean} on a task turn runs: the message's policy matters */
    setRunning: (on) => {
      running = on;
      policyRow.hidden = !on;
    },
    /** @param {boolean} closed the thread takes no more messages */
    setClosed: (on) => {
      closed = on;
      submit.disabled = closed || sending;
      if (closed) result.textContent = 'This conversation has closed.';
    },
  };
}

/**
 * The older turns folded into the thread's summary: no longer listed, so said here (the whole
 * summary on hover).
 * @param {{ text: string, turns: number, through: string }} summary
 */
function summaryNote(summary) {
  const text = summary.text.length > 280 ? `${summary.text.slice(0, 279)}…` : summary.text;
  const count = `${summary.turns} earlier message${summary.turns === 1 ? '' : 's'} (through ${summary.through})`;
  return h('p', { class: 'muted thread-summary', title: summary.text, text: `${count}, summarized: ${text}` });
}
