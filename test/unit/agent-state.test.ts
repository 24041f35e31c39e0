/** The agent state functions: bounded timeline with a cursor, interactions and audit records. */
import {
  MAX_EVENTS,
  MAX_TOOL_CALLS_KEPT,
  addEvent,
  addToolCall,
  createAgentState,
  openInteraction,
  openInteractions,
  recordAnswer,
  stateSince,
  type StepRun,
} from '../../workflows/model/agent/agent-state';
import { addUsage } from '../../workflows/model/llm/usage';
import { progressMarkdown } from '../../workflows/model/agent/progress-markdown';

test('the timeline keeps the last MAX_EVENTS events and the sequence keeps counting', () => {
  const state = createAgentState('t');
  for (let i = 0; i < MAX_EVENTS + 25; i++) addEvent(state, 1000 + i, { type: 'tool.called', message: `e${i}` });
  expect(state.events).toHaveLength(MAX_EVENTS);
  expect(state.eventSeq).toBe(MAX_EVENTS + 25);
  expect(state.events[0]?.seq).toBe(26);
  expect(state.events.at(-1)).toMatchObject({ seq: MAX_EVENTS + 25, at: 1000 + MAX_EVENTS + 24 });
});

test('a step keeps its newest MAX_TOOL_CALLS_KEPT tool calls and counts them all', () => {
  const step: StepRun = {
    id: 's1',
    title: 'One',
    status: 'running' as const,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    toolCalls: [],
    rounds: 0,
    attempts: 1,
  };
  const total = MAX_TOOL_CALLS_KEPT + 7;
  for (let i = 0; i < total; i++) {
    addToolCall(step, { callId: `c${i}`, name: 'lookup', arguments: '{}', outcome: 'ok', durationMs: 1 });
  }
  expect(step.toolCalls).toHaveLength(MAX_TOOL_CALLS_KEPT);
  expect(step.toolCallCount).toBe(total);
  expect(step.toolCalls[0]?.callId).toBe('c7');
  expect(step.toolCalls.at(-1)?.callId).toBe(`c${total - 1}`);
});

test('stateSince returns only events after the cursor', () => {
  const state = createAgentState('t');
  for (let i = 0; i < 5; i++) addEvent(state, i, { type: 'replan', message: `e${i}` });
  expect(stateSince(state, 3).events.map((e) => e.seq)).toEqual([4, 5]);
  expect(stateSince(state).events).toHaveLength(5);
  expect(stateSince(state, 5).events).toEqual([]);
});

test('interactions get sequential ids, an opened event, and an audit record when answered', () => {
  const state = createAgentState('t');
  const a = openInteraction(state, 10, { kind: 'ask.query', prompt: 'Who?' });
  const b = openInteraction(state, 11, { kind: 'step.failure', prompt: 'Retry?', error: 'boom' }, 's2');
  expect([a.id, b.id]).toEqual(['i1', 'i2']);
  expect(b.stepId).toBe('s2');
  expect(openInteractions(state)).toHaveLength(2);
  recordAnswer(state, 20, a, { text: 'engineers' }, 'ann');
  expect(a).toMatchObject({ status: 'answered', answer: { text: 'engineers' }, by: 'ann', answeredAt: 20 });
  expect(openInteractions(state).map((i) => i.id)).toEqual(['i2']);
  expect(state.events.map((e) => [e.type, e.interactionId])).toEqual([
    ['interaction.opened', 'i1'],
    ['interaction.opened', 'i2'],
    ['interaction.answered', 'i1'],
  ]);
});

test('usage adds up field by field; a usage recorded without a cost has an unknown cost', () => {
  const total = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
  addUsage(total, { promptTokens: 10, completionTokens: 20, totalTokens: 30 });
  expect(total).toEqual({ promptTokens: 11, completionTokens: 22, totalTokens: 33, costUsd: null });
});

test('progress markdown shows phase, revision, each step with its dependencies, and waiting input', () => {
  const state = createAgentState('t');
  state.phase = 'executing';
  state.revision = 2;
  state.plan = {
    task: 't',
    language: 'en',
    replan: [],
    steps: [
      { id: 's1', title: 'One', description: '', depends_on: [] },
      { id: 's2', title: 'Two', description: '', depends_on: ['s1'] },
    ],
  };
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  state.steps = [
    { id: 's1', title: 'One', status: 'completed', usage, toolCalls: [], rounds: 1, attempts: 1 },
    { id: 's2', title: 'Two', status: 'waiting', usage, toolCalls: [], rounds: 1, attempts: 1 },
  ];
  openInteraction(state, 1, { kind: 'ask.query', prompt: 'Region?' }, 's2');
  const write = { path: 'notes/brief.md', content: 'A long brief.' };
  const digest = 'd';
  openInteraction(
    state,
    2,
    { kind: 'tool.approval', prompt: 'Allow?', tool: 'write_file', arguments: write, digest },
    's2',
  );
  const command = { command: `echo ${'x'.repeat(100)}` };
  openInteraction(state, 3, { kind: 'tool.approval', prompt: 'Allow?', tool: 'shell', arguments: command, digest });
  // What each waits for: the question, or the tool and the file or command it waits to act on (cut).
  expect(progressMarkdown(state)).toBe(
    [
      '**executing** · plan r2 · 0 tokens',
      '- ● `s1` One',
      '- ⏸ `s2` Two ← s1',
      '',
      'Waiting for input:',
      '- i1 ask.query in `s2`: Region?',
      '- i2 tool.approval in `s2`: write_file notes/brief.md',
      `- i3 tool.approval: shell echo ${'x'.repeat(74)}…`,
    ].join('\n'),
  );
});
