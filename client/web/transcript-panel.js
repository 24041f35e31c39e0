/**
 * A step's transcript on the agent page (GET /api/agents/:id/steps/:stepId/transcript): what
 * its model said each round — the text, the reasoning summary folded, each tool call with its
 * outcome and what the model heard back. Opened from the steps table; read when opened (and
 * again with Refresh), so the state's updates never redraw it under the reader.
 */
import { api } from './api.js';
import { button, h } from './dom.js';

/**
 * The panel for `agentId`: its element, and `show(stepId)` to read and show a step's transcript.
 * @param {string} agentId
 */
export function transcriptPanel(agentId) {
  const host = h('section', { class: 'card transcript-panel', id: 'transcript', hidden: true });
  /** @param {string} stepId */
  async function show(stepId) {
    const title = h('h2', { text: `Transcript of ${stepId}` });
    const controls = h('p', {}, [
      button('Refresh', () => void show(stepId)),
      button('Close', () => (host.hidden = true)),
    ]);
    host.hidden = false;
    host.replaceChildren(title, h('p', { class: 'muted', text: 'Reading…' }));
    host.scrollIntoView({ block: 'nearest' });
    try {
      const path = `/api/agents/${encodeURIComponent(agentId)}/steps/${encodeURIComponent(stepId)}/transcript`;
      host.replaceChildren(title, ...rounds(await api(path)), controls);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      host.replaceChildren(title, h('p', { class: 'error', text: `No transcript: ${message}` }), controls);
    }
  }
  return { host, show };
}

/**
 * The rounds, oldest first, with a note of the rounds dropped to keep the transcript bounded.
 * @param {{ rounds: any[], droppedRounds?: number }} transcript
 */
function rounds(transcript) {
  const parts = [];
  if (transcript.droppedRounds) {
    const note = `${transcript.droppedRounds} earlier rounds were dropped (a transcript keeps 64 KiB).`;
    parts.push(h('p', { class: 'muted', text: note }));
  }
  if (transcript.rounds.length === 0) parts.push(h('p', { class: 'muted', text: 'No rounds yet.' }));
  for (const round of transcript.rounds) {
    parts.push(
      h('div', { class: 'transcript-round', 'data-round': round.round }, [
        h('h3', { text: `Round ${round.round}` }),
        round.reasoning
          ? h('details', { class: 'transcript-reasoning' }, [
              h('summary', { text: 'Reasoning' }),
              h('pre', { text: round.reasoning }),
            ])
          : null,
        round.text ? h('p', { class: 'transcript-text', text: round.text }) : null,
        ...round.toolCalls.map((/** @type {any} */ call) =>
          h('div', { class: 'transcript-call' }, [
            h('code', { class: 'tool-name', text: call.name }),
            h('code', { class: 'tool-args', text: ` ${call.arguments}` }),
            h('span', { class: `status status-${call.outcome}`, text: ` → ${call.outcome}` }),
            call.result ? h('pre', { class: 'transcript-result', text: call.result }) : null,
          ]),
        ),
      ]),
    );
  }
  return parts;
}
