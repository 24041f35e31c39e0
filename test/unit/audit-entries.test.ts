/** The audit's dates: an answer at its answer, an interaction the agent's end closed at that end. */
import { auditOf } from '../../client/agents/audit-entries';
import {
  MAX_EVENTS,
  addEvent,
  createAgentState,
  openInteraction,
  recordAnswer,
} from '../../workflows/model/agent/agent-state';

/** What the interaction desk does to each open interaction when the agent ends (closeAll). */
function closeAtEnd(state: ReturnType<typeof createAgentState>, at: number): void {
  for (const i of state.interactions.filter((x) => x.status === 'open')) {
    i.status = 'expired';
    addEvent(state, at, { type: 'interaction.expired', interactionId: i.id, message: `${i.id} closed: stopped` });
  }
  addEvent(state, at, { type: 'agent.finished', message: 'stopped: deadline' });
}

test('an interaction closed by the agent’s end is dated at the end, after what happened meanwhile', () => {
  const state = createAgentState('t');
  const approval = openInteraction(state, 100, { kind: 'ask.query', prompt: 'Who?' });
  const budget = openInteraction(state, 200, {
    kind: 'budget',
    prompt: 'Raise?',
    usedTokens: 210,
    tokenBudget: 100,
    costUsd: null,
  });
  recordAnswer(state, 300, budget, { decision: 'raise', tokenBudget: 1000 }, 'ana');
  addEvent(state, 400, { type: 'agent.paused', message: 'paused (pause) by ops' });
  closeAtEnd(state, 500);
  expect(auditOf(state).map((e) => [e.what, e.at, e.interactionId])).toEqual([
    ['budget answered', 300, budget.id],
    ['paused (pause) by ops', 400, undefined],
    ['ask.query expired', 500, approval.id],
    ['stopped: deadline', 500, undefined],
  ]);
});

test('when the closing event has left the timeline window, the interaction’s own time stands', () => {
  const state = createAgentState('t');
  openInteraction(state, 100, { kind: 'ask.query', prompt: 'Who?' });
  closeAtEnd(state, 500);
  for (let i = 0; i < MAX_EVENTS; i++) addEvent(state, 600 + i, { type: 'tool.called', message: `e${i}` });
  // The end itself stays in the audit (the decision log keeps it past the window).
  expect(auditOf(state).map((e) => [e.what, e.at])).toEqual([
    ['ask.query expired', 100],
    ['stopped: deadline', 500],
  ]);
});
