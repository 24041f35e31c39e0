/**
 * `cairn run` waiting for a person: while a question waits, the driver looks every `watchMs`
 * whether it closed elsewhere. Those looks used to add an abort listener each to the
 * question's signal and never remove it, so after eleven seconds Node printed
 * `MaxListenersExceededWarning: … 11 abort listeners added to [AbortSignal]` into the terminal.
 * Driven here through a fake client port (the driver's own seam), many looks in a few ms.
 */
import { getEventListeners } from 'node:events';
import type { AnswerRequest, AnswerSource } from '../../client/agents/cli/answer-source';
import { driveAgent, type AgentPort } from '../../client/agents/cli/drive-agent';
import { createAgentState, type AgentState } from '../../workflows/model/agent/agent-state';
import type { Interaction } from '../../workflows/model/interactions/interaction-types';

const LOOKS = 40;

const question: Interaction = { kind: 'ask.query', prompt: 'Who is it for?', id: 'i1', status: 'open', createdAt: 0 };

/** An agent waiting on `question` until it is answered, then completed. */
function waitingAgent() {
  let answered = false;
  let looks = 0;
  let looked!: () => void;
  const lookedEnough = new Promise<void>((resolve) => (looked = resolve));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const state = (): AgentState => ({
    ...createAgentState('a task'),
    phase: answered ? 'completed' : 'awaiting_input',
    interactions: [answered ? { ...question, status: 'answered' } : question],
  });
  const port: AgentPort = {
    state: (_id, afterSeq) => {
      // The watcher reads with the largest cursor (no events wanted); the timeline with its own.
      if (afterSeq === Number.MAX_SAFE_INTEGER && ++looks === LOOKS) looked();
      return Promise.resolve(state());
    },
    answer: () => {
      answered = true;
      finish();
      return Promise.resolve(undefined);
    },
    result: async () => {
      await finished;
      return { status: 'completed', answer: 'done', usage: createAgentState('').usage };
    },
  };
  return { port, lookedEnough };
}

test(`${LOOKS} looks at a waiting question leave at most one abort listener on its signal`, async () => {
  const { port, lookedEnough } = waitingAgent();
  const listeners: number[] = [];
  const source: AnswerSource = {
    async answer(_interaction, request: AnswerRequest) {
      await lookedEnough;
      if (request.signal) listeners.push(getEventListeners(request.signal, 'abort').length);
      return { text: 'engineers' };
    },
  };
  const outcome = await driveAgent(port, 'agent-x', source, {
    pollMs: 1,
    watchMs: 1,
    onEvent: () => undefined,
    onNotice: () => undefined,
  });
  expect(outcome.status).toBe('completed');
  expect(listeners).toHaveLength(1);
  // One look's own wait at most — not one left behind per look.
  expect(listeners[0]).toBeLessThanOrEqual(1);
});
