/**
 * The agent page: phase, the plan graph with live step colours (a graph agent's graph with each
 * node's visits, and the path it took), a control per open interaction,
 * the steps with their Temporal UI links, token usage, the timeline and the final answer as
 * sanitised Markdown. State always comes from the server; every event re-fetches it. Open
 * controls are kept across refreshes, so a half-typed answer is never wiped.
 */
import { ApiError, api } from './api.js';
import { watchEvents } from './timeline-events.js';
import { auditPanel } from './audit-panel.js';
import { filesPanel } from './files-panel.js';
import { transcriptPanel } from './transcript-panel.js';
import { confirmingButton } from './confirm.js';
import { button, clock, h, temporalLink } from './dom.js';
import { agentGraph, planGraph } from './graph.js';
import { followLive } from './live-stream.js';
import { liveView } from './live-view.js';
import { renderMarkdown } from './markdown.js';
import {
  droppedLine,
  graphBounds,
  isTerminalPhase,
  nodeStates,
  noAnswerText,
  pathLine,
  showsWaitingBadge,
  statusClass,
  stepDisplayStatus,
  stepHasWorkflow,
  stepWorkflowId,
  takenEdges,
} from './rules.js';
import { controlFor, whoAmI } from './who.js';

/** How soon the page reads the state again after no worker answered (`AGENT_UNAVAILABLE`). */
const UNAVAILABLE_RETRY_MS = 2000;

/**
 * Renders agent `id` into `main`; returns a function that stops the live updates.
 * @param {HTMLElement} main
 * @param {string} id
 */
export function renderAgentPage(main, id) {
  const header = h('div', { class: 'agent-header' });
  const interactions = h('div', { class: 'interactions', id: 'interactions' });
  const graph = h('div', { class: 'graph', id: 'graph' });
  const graphPath = h('div', { class: 'graph-path-box', id: 'graph-path' });
  const planHeading = h('h2', { text: 'Plan' });
  const steps = h('div', { class: 'steps', id: 'steps' });
  const answer = h('div', { class: 'answer-box', id: 'answer' });
  const usage = h('div', { class: 'usage', id: 'usage' });
  const timeline = h('ol', { class: 'timeline', id: 'timeline' });
  const timelineStatus = h('p', { class: 'muted', id: 'timeline-status', role: 'status' });
  const liveStatus = h('p', { class: 'muted live-status', id: 'live-status', role: 'status' });
  const liveHosts = {
    plan: h('div', { class: 'live', id: 'live-plan' }),
    steps: h('div', { class: 'live', id: 'live-steps' }),
    summary: h('div', { class: 'live', id: 'live-answer' }),
  };
  const path = `/api/agents/${encodeURIComponent(id)}`;
  const live = liveView(liveHosts, (stepId) => api(`${path}/steps/${encodeURIComponent(stepId)}/transcript`));
  const audit = auditPanel(path);
  const files = filesPanel(path);
  const transcript = transcriptPanel(id);
  main.replaceChildren(
    h('p', {}, [h('a', { href: '/', 'data-nav': true, text: '← all agents' })]),
    header,
    liveStatus,
    h('section', { class: 'card' }, [h('h2', { text: 'Waiting for you' }), interactions]),
    h('section', { class: 'card' }, [planHeading, liveHosts.plan, graph, graphPath, steps, liveHosts.steps]),
    transcript.host,
    h('section', { class: 'card' }, [h('h2', { text: 'Answer' }), answer, liveHosts.summary]),
    h('div', { class: 'columns' }, [
      h('section', { class: 'card' }, [h('h2', { text: 'Token usage' }), usage]),
      h('section', { class: 'card' }, [h('h2', { text: 'Timeline' }), timelineStatus, timeline]),
    ]),
    files.el,
    audit.el,
  );
  /** @type {Map<string, HTMLElement>} */
  const controls = new Map();
  const send = (/** @type {string} */ interactionId) => async (/** @type {unknown} */ value) => {
    await api(`${path}/answers`, { method: 'POST', body: { interactionId, answer: value } });
    void refresh();
  };

  // Made once and kept across renders, so a refresh never closes (or answers) its question.
  const cancel = confirmingButton({
    label: 'Cancel agent…',
    question: 'Cancel this agent? Running steps stop; finished work is kept.',
    yes: 'Yes, cancel the agent',
    no: 'Keep it running',
    onConfirm: () => void api(`${path}/cancel`, { method: 'POST' }).then(refresh),
  });

  let busy = false;
  let again = false;
  let stop = () => {};
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retry;
  async function refresh() {
    if (busy) return void (again = true);
    busy = true;
    try {
      const [state] = await Promise.all([api(path), whoAmI()]);
      delete main.dataset.stale;
      render(state);
      void audit.refresh();
      void files.refresh();
      if (isTerminalPhase(state.phase)) stop();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'AGENT_UNAVAILABLE') {
        // No worker answered in time: keep what is shown, say so, and read again shortly.
        main.dataset.stale = 'true';
        clearTimeout(retry);
        retry = setTimeout(() => void refresh(), UNAVAILABLE_RETRY_MS);
      } else {
        header.replaceChildren(h('p', { class: 'error', text: err instanceof Error ? err.message : String(err) }));
      }
    } finally {
      busy = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  }

  /** @param {any} state */
  function render(state) {
    main.dataset.phase = state.phase;
    const post = (/** @type {string} */ action) => () =>
      void api(`${path}/${action}`, { method: 'POST' }).then(refresh);
    renderHeader(header, id, state, cancel, post(state.hold?.reasons.includes('pause') ? 'resume' : 'pause'));
    syncInteractions(interactions, controls, state, send);
    const statuses = Object.fromEntries(state.steps.map((/** @type {any} */ s) => [s.id, stepDisplayStatus(s, state)]));
    // A graph agent runs its graph, not a plan: the graph with each node's visits, and the path so far.
    planHeading.textContent = state.graph ? `Graph ${state.graph.name}` : 'Plan';
    if (state.graph) {
      graph.replaceChildren(
        h('p', {
          class: 'muted graph-bounds',
          text: `${state.graph.description ?? ''} (${graphBounds(state.graph)})`.trim(),
        }),
        agentGraph(state.graph, nodeStates(state), takenEdges(state.path ?? [])),
      );
      graphPath.replaceChildren(pathList(state));
    } else {
      graph.replaceChildren(
        state.plan ? planGraph(state.plan.steps, statuses) : h('p', { class: 'muted', text: 'No plan yet.' }),
      );
    }
    steps.replaceChildren(stepTable(id, state, (stepId) => void transcript.show(stepId)));
    answer.replaceChildren(...answerParts(state));
    live.sync(state);
    usage.replaceChildren(usageTable(state));
    timeline.replaceChildren(
      ...state.events.map((/** @type {any} */ e) =>
        h('li', { 'data-type': e.type }, [
          h('time', { text: clock(e.at) }),
          h('code', { text: e.type }),
          ` ${e.message}`,
        ]),
      ),
    );
  }

  stop = watchEvents(
    id,
    () => void refresh(),
    (text) => (timelineStatus.textContent = text),
  );
  // The model's words as they form; it ends by itself after the agent's last call.
  const stopLive = followLive(id, {
    event: (event) => live.apply(event),
    status: (text) => (liveStatus.textContent = text),
  });
  void refresh();
  return () => {
    clearTimeout(retry);
    stop();
    stopLive();
  };
}

/**
 * The path a graph agent took, oldest visit first, each with its step id and the edge it left
 * by and why; the visit running now marked `current`.
 * @param {any} state
 */
function pathList(state) {
  /** @type {any[]} */
  const path = state.path ?? [];
  if (path.length === 0 && !state.pathDropped)
    return h('p', { class: 'muted path-none', text: 'No node has run yet.' });
  const running = new Set(
    state.steps
      .filter((/** @type {any} */ s) => s.status === 'running' || s.status === 'waiting')
      .map((/** @type {any} */ s) => s.id),
  );
  return h('div', {}, [
    h('h3', { text: 'Path' }),
    state.pathDropped ? h('p', { class: 'muted dropped', text: droppedLine(state.pathDropped) }) : null,
    // Numbered as the walk counts them: after the visits no longer kept.
    h('ol', { class: 'graph-path', start: (state.pathDropped ?? 0) + 1 }, [
      ...path.map((entry) =>
        h('li', { 'data-step-id': entry.stepId, class: running.has(entry.stepId) ? 'current' : null }, [
          h('code', { text: entry.stepId }),
          ` ${pathLine(entry)}`,
        ]),
      ),
    ]),
  ]);
}

/**
 * @param {HTMLElement} header
 * @param {string} id
 * @param {any} state
 * @param {HTMLElement} cancel the cancel button, which asks before it cancels
 * @param {() => void} pauseOrResume pauses the agent, or resumes it when an operator paused it
 */
function renderHeader(header, id, state, cancel, pauseOrResume) {
  const paused = state.hold?.reasons.includes('pause') === true;
  const waiting = state.interactions.some((/** @type {any} */ i) => i.status === 'open');
  header.replaceChildren(
    h('h1', { class: 'task', text: state.task }),
    h('p', { class: 'meta' }, [
      h('span', {
        class: `phase phase-${state.phase}`,
        'data-phase': state.phase,
        text: state.phase.replace('_', ' '),
      }),
      // Beside another phase only: "awaiting input" already says it.
      showsWaitingBadge(state.phase, waiting) ? h('span', { class: 'badge waiting', text: 'waiting for input' }) : null,
      state.demo ? h('span', { class: 'badge demo', text: 'offline demo model' }) : null,
      state.definition ? definitionBadge(state.definition) : null,
      state.model ? h('span', { class: 'muted', text: `model ${state.model}` }) : null,
      state.revision ? h('span', { class: 'muted', text: `plan r${state.revision}` }) : null,
      h('code', { class: 'agent-id', text: id }),
      temporalLink(id, 'Open in Temporal UI'),
      isTerminalPhase(state.phase)
        ? null
        : h('button', { type: 'button', text: paused ? 'Resume agent' : 'Pause agent', onclick: pauseOrResume }),
      isTerminalPhase(state.phase) ? null : cancel,
    ]),
  );
}

/**
 * The agent definition the agent runs: its name, its version's first 12 hex digits (whole in the
 * title) and its label.
 * @param {{ name: string, version: string, label?: string }} definition
 */
function definitionBadge(definition) {
  const label = definition.label ? ` (${definition.label})` : '';
  return h('span', {
    class: 'muted definition',
    title: `definition ${definition.name}, version ${definition.version}`,
    text: `definition ${definition.name} ${definition.version.slice(0, 12)}${label}`,
  });
}

/**
 * Adds controls for newly open interactions and removes those no longer open.
 * @param {HTMLElement} box
 * @param {Map<string, HTMLElement>} controls
 * @param {any} state
 * @param {(id: string) => (answer: unknown) => Promise<void>} send
 */
function syncInteractions(box, controls, state, send) {
  const open = state.interactions.filter((/** @type {any} */ i) => i.status === 'open');
  const openIds = new Set(open.map((i) => i.id));
  for (const [key, el] of controls) {
    if (!openIds.has(key)) {
      el.remove();
      controls.delete(key);
    }
  }
  for (const interaction of open) {
    if (controls.has(interaction.id)) continue;
    const el = controlFor(interaction, send(interaction.id));
    controls.set(interaction.id, el);
    box.append(el);
  }
  box.querySelector('.none')?.remove();
  const ended = isTerminalPhase(state.phase);
  if (open.length === 0) {
    box.append(
      h('p', { class: 'muted none', text: ended ? 'Nothing to answer: the agent has ended.' : 'Nothing to answer.' }),
    );
  }
}

/**
 * The steps: status as people read it (a running step of a held agent is paused; a pending one
 * of an ended agent was not run), and a Temporal UI link and its transcript only once the step's
 * workflow exists.
 * @param {string} agentId
 * @param {any} state
 * @param {(stepId: string) => void} showTranscript
 */
function stepTable(agentId, state, showTranscript) {
  /** @type {any[]} */
  const steps = state.steps;
  if (steps.length === 0) return h('p', { class: 'muted', text: 'No steps have run yet.' });
  const rows = steps.map((s) => {
    const status = stepDisplayStatus(s, state);
    return h('tr', { 'data-step-id': s.id }, [
      h('td', {}, [h('code', { text: s.id })]),
      h('td', { text: s.title }),
      h('td', {}, [h('span', { class: `status status-${statusClass(status)}`, text: status })]),
      h('td', { class: 'num', text: s.usage.totalTokens }),
      h('td', { class: 'result', text: s.error ?? s.result ?? '' }),
      h('td', {}, [
        stepHasWorkflow(s) ? temporalLink(stepWorkflowId(agentId, s.id), 'Temporal') : null,
        stepHasWorkflow(s) ? button('Transcript', () => showTranscript(s.id), 'link transcript-open') : null,
      ]),
    ]);
  });
  const head = ['Step', 'Title', 'Status', 'Tokens', 'Result', ''].map((t) => h('th', { text: t }));
  return h('table', {}, [h('thead', {}, [h('tr', {}, head)]), h('tbody', {}, rows)]);
}

/** @param {any} state */
function answerParts(state) {
  const parts = [];
  if (state.error) parts.push(h('p', { class: 'error agent-error', text: state.error }));
  if (state.result) {
    const md = h('div', { class: 'markdown final-answer' });
    md.innerHTML = renderMarkdown(state.result);
    parts.push(md);
  }
  if (parts.length === 0) parts.push(h('p', { class: 'muted no-answer', text: noAnswerText(state.phase) }));
  return parts;
}

/** @param {any} state */
function usageTable(state) {
  const u = state.usage;
  const row = (/** @type {string} */ k, /** @type {number} */ v) =>
    h('tr', {}, [h('th', { text: k }), h('td', { class: 'num', text: v })]);
  return h('table', { class: 'usage-table' }, [
    h('tbody', {}, [row('Prompt', u.promptTokens), row('Completion', u.completionTokens), row('Total', u.totalTokens)]),
  ]);
}
