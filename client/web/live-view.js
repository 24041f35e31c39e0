/**
 * What the agent's model calls say, shown as it streams (docs/contracts.md#live-output): the
 * planner's calls in the plan card, each step's calls under the steps, the final answer's in the
 * answer card. A call shows its text growing, its reasoning folded (closed until opened), and its
 * tool calls inline with their arguments as they form — then each tool call's outcome once the
 * state records it, and what the tool returned (cut, as the step's transcript keeps it). One
 * attempt per call is ever shown: a `call.superseded` (or a later attempt's first item) drops the
 * older attempt's text, so a retry's text replaces the partial one.
 *
 * Model text is untrusted: it only ever becomes text nodes, never markup.
 */
import { h } from './dom.js';
import { isTerminalPhase } from './rules.js';
import { PLAN_PURPOSES, showCall, showPlan } from './live-format.js';

/** @typedef {{ type: string, data: any, offset?: number }} LiveEvent */

/**
 * @typedef {object} CallView
 * @property {HTMLElement} el
 * @property {HTMLElement} body the call's parts, in the order they formed
 * @property {number} attempt the attempt shown
 */

/** What each purpose is called on the page. */
const PURPOSE_LABELS = /** @type {Record<string, string>} */ ({
  plan: 'Planner',
  replan: 'Planner (revising)',
  summary: 'Final answer',
  route: 'Router (which edge a graph agent takes)',
});

/**
 * The live view over three hosts the agent page places; `readTranscript(stepId)` reads a step's
 * transcript (GET …/steps/:stepId/transcript), where its tool calls' results are.
 * @param {{ plan: HTMLElement, steps: HTMLElement, summary: HTMLElement }} hosts
 * @param {(stepId: string) => Promise<any>} readTranscript
 */
export function liveView(hosts, readTranscript) {
  /** @type {Map<string, CallView>} */
  const calls = new Map();
  /** Steps whose transcript is being read for results. */
  const reading = new Set();
  /** Tool calls whose result was looked for in a transcript that had settled them (shown, or dropped from it). */
  const looked = new Set();

  /** The shown tool call with id `callId`, if any. */
  const toolEl = (/** @type {string} */ callId) =>
    [...hosts.steps.querySelectorAll('.live-tool')].find((t) => t.getAttribute('data-tool-call-id') === callId);

  /** Reads step `stepId`'s transcript and shows each settled call's result under the call. */
  async function showResults(/** @type {string} */ stepId, /** @type {string[]} */ callIds) {
    if (reading.has(stepId)) return;
    reading.add(stepId);
    try {
      const transcript = await readTranscript(stepId);
      /** @type {Set<string>} */
      const pending = new Set();
      for (const round of transcript.rounds ?? []) {
        for (const call of round.toolCalls ?? []) {
          if (typeof call.callId !== 'string') continue;
          if (call.outcome === 'pending') pending.add(call.callId);
          const el = toolEl(call.callId);
          if (!el || typeof call.result !== 'string' || el.querySelector('.tool-result')) continue;
          el.append(h('pre', { class: 'code tool-result', text: call.result }));
        }
      }
      for (const id of callIds) if (!pending.has(id)) looked.add(id);
    } catch {
      // No transcript now (a worker busy, the step gone): the next state looks again.
    } finally {
      reading.delete(stepId);
    }
  }
  /** @type {Map<string, HTMLElement>} */
  const groups = new Map();

  /** The box a call's purpose and step put it in, made on first use. */
  const groupOf = (/** @type {any} */ data) => {
    const step = typeof data.stepId === 'string' ? data.stepId : undefined;
    const key = step !== undefined ? `step:${step}` : data.purpose === 'summary' ? 'summary' : 'plan';
    let group = groups.get(key);
    if (!group) {
      const title = step !== undefined ? `Step ${step} · live` : (PURPOSE_LABELS[data.purpose] ?? data.purpose);
      group = h('section', { class: 'live-group', 'data-group': key, ...(step ? { 'data-step-id': step } : {}) }, [
        h('h3', { class: 'live-title', text: title }),
      ]);
      groups.set(key, group);
      (step !== undefined ? hosts.steps : key === 'summary' ? hosts.summary : hosts.plan).append(group);
    }
    return group;
  };

  /** The view of `data`'s call at its attempt: made on first sight, emptied for a newer attempt. */
  const callOf = (/** @type {any} */ data) => {
    let call = calls.get(data.modelCallId);
    if (!call) {
      const body = h('div', { class: 'live-body' });
      const el = h('article', { class: 'live-call', 'data-purpose': data.purpose, 'data-state': 'streaming' }, [body]);
      call = { el, body, attempt: data.attempt };
      el.dataset.attempt = String(data.attempt);
      calls.set(data.modelCallId, call);
      groupOf(data).append(el);
    } else if (data.attempt > call.attempt) {
      replaceAttempt(call, data.attempt);
    }
    return call;
  };

  /** @param {LiveEvent} event */
  function apply(event) {
    const data = event.data ?? {};
    if (event.type === 'reset') return clear();
    if (typeof data.modelCallId !== 'string' || typeof data.attempt !== 'number') return;
    if (event.type === 'call.superseded') {
      const call = calls.get(data.modelCallId);
      if (call && call.attempt === data.attempt) replaceAttempt(call, data.by);
      return;
    }
    const known = calls.get(data.modelCallId);
    // An older attempt's item, arriving after its retry's: never shown beside it.
    if (known && data.attempt < known.attempt) return;
    const call = callOf(data);
    if (event.type === 'call.started') {
      if (data.streaming === false)
        call.body.append(h('p', { class: 'muted', text: 'This endpoint does not stream: the reply shows when done.' }));
    } else if (event.type === 'call.finished') {
      call.el.dataset.state = data.outcome;
      if (data.outcome === 'completed' && PLAN_PURPOSES.has(data.purpose)) showPlan(call.body);
      if (data.outcome === 'completed') for (const tool of call.body.querySelectorAll('.live-tool')) showCall(tool);
      if (data.outcome !== 'completed')
        call.el.append(
          h('p', { class: 'muted live-outcome', text: `call ${data.outcome}${data.error ? `: ${data.error}` : ''}` }),
        );
    } else if (event.type === 'delta') addDelta(call.body, data);
  }

  /** Drops everything shown: the stream goes on from a later offset (what was dropped is in the state). */
  function clear() {
    calls.clear();
    for (const group of groups.values()) group.remove();
    groups.clear();
  }

  /**
   * Marks each shown tool call with its outcome once the state records it (and then reads its
   * result from the step's transcript, once per call), and hides the live
   * final answer once the answer itself is shown.
   * @param {any} state
   */
  function sync(state) {
    for (const step of state.steps ?? []) {
      /** @type {string[]} */
      const withoutResult = [];
      for (const record of step.toolCalls ?? []) {
        const el = toolEl(record.callId);
        const outcome = el?.querySelector('.tool-outcome');
        if (!el || !outcome) continue;
        outcome.textContent = `→ ${record.outcome} (${record.durationMs} ms)`;
        outcome.setAttribute('data-outcome', record.outcome);
        if (!el.querySelector('.tool-result') && !looked.has(record.callId)) withoutResult.push(record.callId);
      }
      if (withoutResult.length > 0) void showResults(step.id, withoutResult);
    }
    hosts.summary.hidden = typeof state.result === 'string';
    // Ended: a call the state never recorded an outcome for will get none; no "…" stays.
    if (typeof state.phase === 'string' && isTerminalPhase(state.phase))
      for (const outcome of hosts.steps.querySelectorAll('.tool-outcome')) {
        if (outcome.hasAttribute('data-outcome')) continue;
        outcome.textContent = '→ no outcome (the agent ended)';
        outcome.setAttribute('data-outcome', 'none');
      }
  }

  return { apply, sync };
}

/**
 * Shows attempt `attempt` of `call` instead of the one shown: the old attempt's parts go.
 * @param {CallView} call
 * @param {number} attempt
 */
function replaceAttempt(call, attempt) {
  call.attempt = attempt;
  call.el.dataset.attempt = String(attempt);
  call.el.dataset.state = 'streaming';
  call.el.querySelector('.live-outcome')?.remove();
  call.body.replaceChildren(h('p', { class: 'muted live-retry', text: `retried (attempt ${attempt})` }));
}

/**
 * Adds a delta's text where it belongs: the open text or reasoning part when the last part is
 * of its channel, the tool call it names, else a new part.
 * @param {HTMLElement} body
 * @param {any} delta
 */
function addDelta(body, delta) {
  const text = String(delta.text ?? '');
  if (delta.channel === 'tool') {
    const id = String(delta.toolCallId ?? '');
    let tool = [...body.querySelectorAll('.live-tool')].find((t) => t.getAttribute('data-tool-call-id') === id);
    if (!tool) {
      tool = h('div', { class: 'live-tool', 'data-tool-call-id': id }, [
        h('code', { class: 'tool-name', text: delta.toolName ?? 'tool' }),
        h('pre', { class: 'code tool-args' }),
        h('span', { class: 'tool-outcome muted', text: '…' }),
      ]);
      body.append(tool);
    } else if (delta.toolName) {
      const name = tool.querySelector('.tool-name');
      if (name) name.textContent = delta.toolName;
    }
    const args = tool.querySelector('.tool-args');
    if (args) appendText(args, text);
    return;
  }
  const last = body.lastElementChild;
  if (delta.channel === 'reasoning') {
    const open = last?.classList.contains('live-reasoning') ? last : undefined;
    const part =
      open ??
      h('details', { class: 'live-reasoning' }, [
        h('summary', { text: 'Reasoning' }),
        h('div', { class: 'reasoning-text' }),
      ]);
    if (!open) body.append(part);
    const reasoning = part.querySelector('.reasoning-text');
    if (reasoning) appendText(reasoning, text);
    return;
  }
  const open = last?.classList.contains('live-text') ? last : undefined;
  const part = open ?? h('div', { class: 'live-text' });
  if (!open) body.append(part);
  appendText(part, text);
}

/**
 * Grows `el`'s last text node by `text` (one node per part, however many deltas).
 * @param {Element} el
 * @param {string} text
 */
function appendText(el, text) {
  const last = el.lastChild;
  if (last instanceof Text) last.appendData(text);
  else el.append(text);
}
