/**
 * Entry of the Cairn page: routes by path (`/` → submit a task and list agents, `/agents/:id`
 * → the agent page, `/threads` → the conversations, `/threads/:id` → one conversation),
 * intercepts in-page links so navigation needs no reload, and keeps the list fresh. Browser ES
 * module, no build step.
 */
import { api, apiForm, dropAddressToken } from './api.js';
import { renderAgentPage } from './agent-view.js';
import { definitionPick } from './definition-pick.js';
import { clock, h } from './dom.js';
import { startOptions } from './start-options.js';
import { startFiles, startForm } from './start-files.js';
import { renderThreadList } from './thread-list.js';
import { renderThreadPage } from './threads-view.js';
import { identityLine, tokenBox } from './who.js';

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
/** Stops whatever the current view keeps running (event stream, list polling). */
let leave = () => {};

/** Renders the view for the current path. */
function route() {
  leave();
  const match = /^\/agents\/([^/]+)\/?$/.exec(location.pathname);
  const thread = /^\/threads\/([^/]+)\/?$/.exec(location.pathname);
  if (match) leave = renderAgentPage(main, decodeURIComponent(match[1] ?? ''));
  else if (thread) {
    const id = decodeURIComponent(thread[1] ?? '');
    leave = renderThreadPage(main, id === 'new' ? null : id, navigate);
  } else if (/^\/threads\/?$/.test(location.pathname)) leave = renderThreadList(main, navigate);
  else leave = renderHome(main);
}

/**
 * @param {string} path
 * @param {boolean} [replace] in place of the current entry (a new conversation once opened)
 */
export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

/**
 * The home view: the task form and the agent list (waiting-for-input first).
 * @param {HTMLElement} root
 */
function renderHome(root) {
  const task = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { id: 'task', name: 'task', rows: 4, required: true, placeholder: 'Research X and write a brief…' })
  );
  const check = (/** @type {string} */ name, /** @type {string} */ label, on = false) =>
    h('label', { class: 'check' }, [h('input', { type: 'checkbox', name, checked: on }), ` ${label}`]);
  const error = h('p', { class: 'error', role: 'alert' });
  // Filled with a picker once the server lists registered graphs; stays empty when it has none.
  const graphs = h('div', { class: 'graph-pick' });
  const options = startOptions();
  const files = startFiles();
  const form = h('form', { id: 'new-agent' });
  // Filled with a picker once the server lists definitions beside the built-in one.
  const definitions = definitionPick(form);
  form.replaceChildren(
    h('label', { for: 'task', text: 'Task' }),
    task,
    definitions.element,
    graphs,
    files.element,
    h('div', { class: 'checks' }, [
      check('plan', 'plan first', true),
      // A first run shows the agent asking and waiting for its plan check: both on unless unticked.
      check('ask', 'may ask questions', true),
      check('confirmPlan', 'I confirm the plan', true),
    ]),
    options.element,
    h('button', { type: 'submit', class: 'primary', text: 'Start agent' }),
    error,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const flag = (/** @type {string} */ name) =>
      /** @type {HTMLInputElement} */ (form.querySelector(`[name=${name}]`)).checked;
    const graphName = /** @type {HTMLSelectElement | null} */ (form.querySelector('select[name=graph]'))?.value;
    // A graph's nodes decide what runs: no planning modes with it (the server refuses them).
    /** @type {Record<string, any>} */
    const body = graphName
      ? { task: task.value, graphName, mode: { confirmPlan: flag('confirmPlan') } }
      : { task: task.value, mode: { plan: flag('plan'), ask: flag('ask'), confirmPlan: flag('confirmPlan') } };
    options.addTo(body, Boolean(graphName));
    definitions.addTo(body);
    error.textContent = '';
    options.clearErrors();
    // With files the start is a multipart form: the input as its `input` part, each file a part.
    const chosen = files.files();
    const started =
      chosen.length > 0
        ? apiForm('/api/agents', startForm(body, chosen))
        : api('/api/agents', { method: 'POST', body });
    started
      .then(({ id }) => navigate(`/agents/${encodeURIComponent(id)}`))
      .catch((err) => {
        error.textContent = err.message;
        // A refusal naming an option's field is shown beside that field too.
        options.showError(err.field, err.message);
      });
  });

  // `data-graphs` says how many were offered once the list was read (0 when it failed): no picker then.
  api('/api/graphs')
    .then(({ graphs: registered }) => (Array.isArray(registered) ? registered : []))
    .catch(() => []) // no graphs to offer: the form plans as before
    .then((registered) => {
      if (registered.length > 0) graphs.replaceChildren(...graphPicker(registered, form, options.setGraph));
      graphs.dataset.graphs = String(registered.length);
    });

  // `data-definitions` says how many were offered beside the built-in one (0 when the list failed).
  api('/api/agent-definitions')
    .then(({ definitions: listed }) => (Array.isArray(listed) ? listed : []))
    .catch(() => [])
    .then(definitions.offer);

  const list = h('div', { id: 'agents' }, [h('p', { class: 'muted', text: 'Loading…' })]);
  root.replaceChildren(
    h('section', { class: 'card' }, [h('h2', { text: 'New agent' }), form]),
    h('section', { class: 'card' }, [h('h2', { text: 'Agents' }), list]),
  );
  const load = () =>
    api('/api/agents?limit=50')
      .then(({ agents }) => list.replaceChildren(agentList(agents)))
      .catch((err) => list.replaceChildren(h('p', { class: 'error', text: err.message })));
  void load();
  const timer = setInterval(load, 5000);
  return () => clearInterval(timer);
}

/**
 * A choice of registered graph (`GET /api/graphs`): none plans the task as before; a graph runs
 * its nodes instead, so the planning checks are off while one is picked.
 * @param {{ name: string, description?: string }[]} registered
 * @param {HTMLElement} form
 * @param {(on: boolean) => void} setGraph disables the options a graph refuses while one is picked
 */
function graphPicker(registered, form, setGraph) {
  const none = h('option', { value: '', text: 'none: plan the task' });
  const options = registered.map((g) =>
    h('option', { value: g.name, text: g.description ? `${g.name}: ${g.description}` : g.name }),
  );
  const select = /** @type {HTMLSelectElement} */ (h('select', { id: 'graph', name: 'graph' }, [none, ...options]));
  select.addEventListener('change', () => {
    for (const name of ['plan', 'ask']) {
      const box = /** @type {HTMLInputElement} */ (form.querySelector(`[name=${name}]`));
      box.disabled = select.value !== '';
    }
    setGraph(select.value !== '');
  });
  return [h('label', { for: 'graph', text: 'Agent graph' }), select];
}

/** @param {any[]} agents newest first */
function agentList(agents) {
  if (agents.length === 0) return h('p', { class: 'muted', text: 'No agents yet.' });
  const sorted = [...agents.filter((a) => a.awaitingInput), ...agents.filter((a) => !a.awaitingInput)];
  const rows = sorted.map((a) =>
    h('li', { class: `agent-row${a.awaitingInput ? ' waiting' : ''}`, 'data-id': a.id }, [
      h('span', { class: `phase phase-${a.phase}`, text: a.phase.replace('_', ' ') }),
      // Beside another phase only: "awaiting input" already says it.
      a.awaitingInput && a.phase !== 'awaiting_input'
        ? h('span', { class: 'badge waiting', text: 'waiting for input' })
        : null,
      h('a', { href: `/agents/${encodeURIComponent(a.id)}`, 'data-nav': true, text: a.task || a.id }),
      a.startedAt ? h('time', { class: 'muted', text: clock(Date.parse(a.startedAt)) }) : null,
      // The build the agent runs on (Worker Deployment version), as `cairn ls` shows it.
      a.version ? h('span', { class: 'muted version', title: 'Worker Deployment build', text: a.version }) : null,
    ]),
  );
  return h('ul', { class: 'agent-list' }, rows);
}

document.addEventListener('click', (e) => {
  const link = e.target instanceof Element ? e.target.closest('a[data-nav]') : null;
  if (!link || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(link.getAttribute('href') ?? '/');
});
window.addEventListener('popstate', route);
/** Says why a `?token=` link's token was not used, and offers the token box instead. */
function linkTokenNotice() {
  return h('section', { class: 'card notice link-token', role: 'status' }, [
    h('p', {
      text:
        'This link carried an API token in its address. Cairn no longer takes tokens from links: ' +
        'anyone could send you one, and an address ends up in history and logs. The token was not used. ' +
        'To act with an API token, paste it here:',
    }),
    tokenBox(),
  ]);
}

const linkToken = dropAddressToken();
route();
if (linkToken) main.before(linkTokenNotice());
void identityLine().then((line) => line && document.querySelector('header.top')?.append(line));
