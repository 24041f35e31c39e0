/**
 * The real-model suite demands evidence (real-model/evidence.ts): a run is PASS only when nothing
 * broke AND every mechanism it claims to check was exercised — tool calls ran, an approval was
 * asked and answered, a structured-output plan was requested and parsed, a plan was checked, and
 * conversations carried tool calls back to the model (each checked for a clean conversation,
 * real-model/conversation-check.ts). A model that never calls a tool makes the run INCONCLUSIVE.
 */
import { defaultPayloadConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { payloadCodecs } from '../../temporal/payloads/data-converter';
import { AGENT_CASES, type AgentCase } from '../../real-model/agents';
import type { AgentEvidence } from '../../real-model/checks';
import { checkConversation } from '../../real-model/conversation-check';
import { mechanisms, verdict } from '../../real-model/evidence';
import type { Exchange } from '../../real-model/recording-proxy';
import type { AgentRun } from '../../real-model/stand-in';
import { canonical, stepToolRuns } from '../../real-model/tool-runs';
import { createAgentState, type AgentEvent, type AgentState } from '../../workflows/model/agent/agent-state';

const caseNamed = (name: string): AgentCase => {
  const found = AGENT_CASES.find((a) => a.name === name);
  if (!found) throw new Error(`no agent case ${name}`);
  return found;
};

function run(extra: Partial<AgentRun> = {}): AgentRun {
  return { id: 'a', outcome: 'failed', approvals: [], answered: {}, refused: [], wallMs: 1, ...extra };
}

const exchange = (extra: Partial<Exchange> = {}): Exchange => ({
  at: 0,
  durationMs: 1,
  purpose: 'step',
  path: '/v1/chat/completions',
  status: 200,
  tools: 1,
  messages: 2,
  toolCalls: 0,
  conversationToolCalls: 0,
  conversationFaults: [],
  ...extra,
});

/** A timeline event of `type`. */
const event = (seq: number, type: AgentEvent['type'], message: string): AgentEvent => ({ seq, at: 0, type, message });

/** A planning agent's state whose plan was parsed from the planner's reply (no repair before it). */
function plannedState(): AgentState {
  const state = createAgentState('task');
  state.events.push(event(1, 'plan.rejected', 'steps: at least one'), event(2, 'plan.created', 'plan r1: s1'));
  return state;
}

/** A ReAct agent's state: its one-step plan (made without a planner), and a loop guard that refused a call. */
function reactState(phase: AgentState['phase']): AgentState {
  const state = createAgentState('task');
  state.phase = phase;
  state.events.push(event(1, 'plan.created', 'plan r1: task'), event(2, 'step.guard', IDENTICAL_REFUSAL));
  return state;
}

const IDENTICAL_REFUSAL =
  'read_file not run: this exact call (read_file with the same arguments) was already made 1 times in this step; ' +
  'its result will not change. Use the earlier result, change the arguments, or call finish_step.';

const planCall = (extra: Partial<Exchange> = {}) =>
  exchange({ purpose: 'plan', responseFormat: 'json_schema', streamed: true, chunks: 30, ...extra });

/** A run in which every mechanism was exercised once. */
function fullRun(): { results: AgentEvidence[]; exchanges: Exchange[] } {
  const results: AgentEvidence[] = [
    {
      agent: caseNamed('write-approval'),
      run: run({
        outcome: 'completed',
        state: reactState('completed'),
        approvals: [{ interactionId: 'i1', tool: 'write_file', digest: 'd' }],
        answered: { 'tool.approval': 1 },
      }),
      exchanges: [],
      repeated: [{ stepId: 'main', call: 'write_file {}', runs: 1, completed: 1, succeeded: 1 }],
      deltas: 12,
    },
    {
      agent: caseNamed('ask-plan-check'),
      run: run({ state: plannedState(), answered: { 'plan.check': 1 } }),
      exchanges: [planCall()],
      repeated: [],
      deltas: 0,
    },
  ];
  const exchanges = [planCall(), exchange({ conversationToolCalls: 1 })];
  return { results, exchanges };
}

const seenOf = (results: AgentEvidence[], exchanges: Exchange[], name: string) =>
  mechanisms(results, exchanges).find((m) => m.name === name)?.seen;

test('a run that exercised every mechanism and broke nothing passes; one violation fails it', () => {
  const { results, exchanges } = fullRun();
  const seen = mechanisms(results, exchanges);
  expect(seen.filter((m) => !m.seen)).toEqual([]);
  expect(verdict(0, seen, false)).toBe('PASS');
  expect(verdict(1, seen, false)).toBe('FAIL');
  expect(verdict(0, seen, true)).toBe('FAIL'); // the model server died
});

describe('runs the verdict once passed wrongly are not PASS', () => {
  test('five agents that all failed, none completed', () => {
    const { results, exchanges } = fullRun();
    const failed = [...results, ...results, results[0] as AgentEvidence]
      .slice(0, 5)
      .map((r) => ({ ...r, run: { ...r.run, outcome: 'failed', code: 'STEP_FAILED' } }));
    expect(failed).toHaveLength(5);
    const seen = mechanisms(failed, exchanges);
    expect(seen.filter((m) => !m.seen).map((m) => m.name)).toEqual(['an agent completed']);
    expect(verdict(0, seen, false)).toBe('INCONCLUSIVE');
  });

  test("a plan made only by a ReAct agent's one-step plan, the planning agents' plans repaired", () => {
    const { results, exchanges } = fullRun();
    const repaired = createAgentState('task');
    repaired.events.push(
      event(1, 'plan.rejected', 'cut'),
      event(2, 'plan.repaired', 'the planner gave 3 unusable replies in a row; reply 3 was repaired'),
      event(3, 'plan.created', 'plan r1: s1'),
    );
    const onlyRepaired = results.map((r) =>
      r.agent.name === 'ask-plan-check' ? { ...r, run: { ...r.run, state: repaired } } : r,
    );
    const seen = mechanisms(onlyRepaired, exchanges);
    expect(seen.filter((m) => !m.seen).map((m) => m.name)).toEqual([
      "a planner's structured-output reply was parsed into a plan",
    ]);
    expect(verdict(0, seen, false)).toBe('INCONCLUSIVE');
  });

  test("tool runs that all ended in the tool's error", () => {
    const { results, exchanges } = fullRun();
    const failedRuns = results.map((r) => ({
      ...r,
      repeated: r.repeated.map((c) => ({ ...c, completed: 3, succeeded: 0 })),
    }));
    const seen = mechanisms(failedRuns, exchanges);
    expect(seen.filter((m) => !m.seen).map((m) => m.name)).toEqual(['tool calls ran and did their work']);
    expect(verdict(0, seen, false)).toBe('INCONCLUSIVE');
  });

  test('no loop guard ever acted (a step note that is not a guard does not count)', () => {
    const { results, exchanges } = fullRun();
    const textCall =
      'the model wrote what looks like a tool call as text instead of calling the tool: its server may drop tools';
    const quiet = results.map((r) => {
      const state = r.run.state && {
        ...r.run.state,
        events: r.run.state.events.map((e) => (e.type === 'step.guard' ? { ...e, message: textCall } : e)),
      };
      return { ...r, run: { ...r.run, ...(state ? { state } : {}) } };
    });
    const seen = mechanisms(quiet, exchanges);
    expect(seen.filter((m) => !m.seen).map((m) => m.name)).toEqual(['a loop guard acted']);
    expect(verdict(0, seen, false)).toBe('INCONCLUSIVE');
  });
});

test('a model that never calls tools leaves the run INCONCLUSIVE, naming what was not seen', () => {
  const { results, exchanges } = fullRun();
  const noTools = results.map((r) => ({
    ...r,
    repeated: [],
    run: { ...r.run, approvals: [], answered: {}, state: r.agent.name === 'ask-plan-check' ? r.run.state : undefined },
  }));
  const seen = mechanisms(
    noTools,
    exchanges.filter((e) => e.conversationToolCalls === 0),
  );
  expect(seen.filter((m) => !m.seen).map((m) => m.name)).toEqual([
    'tool calls ran and did their work',
    'an approval was asked and answered',
    'a plan was checked',
    'conversations carried tool calls back to the model',
    'a loop guard acted',
  ]);
  expect(verdict(0, seen, false)).toBe('INCONCLUSIVE');
});

test('a plan asked for without a structured-output format, or never parsed, is not evidence of structured output', () => {
  const { results, exchanges } = fullRun();
  const name = "a planner's structured-output reply was parsed into a plan";
  const plain = results.map((r) => ({
    ...r,
    exchanges: r.exchanges.map((e) => (e.purpose === 'plan' ? { ...e, responseFormat: undefined } : e)),
  }));
  expect(seenOf(plain, exchanges, name)).toBe(false);
  const unparsed = results.map((r) => ({ ...r, run: { ...r.run, state: createAgentState('task') } }));
  expect(seenOf(unparsed, exchanges, name)).toBe(false);
});

test('streaming is seen only when an answer came in chunks and a live viewer received deltas', () => {
  const { results, exchanges } = fullRun();
  const name = 'model calls streamed and their deltas reached a live viewer';
  expect(seenOf(results, exchanges, name)).toBe(true);
  const whole = exchanges.map((e) => ({ ...e, streamed: false }));
  expect(seenOf(results, whole, name)).toBe(false);
  const unseen = results.map((r) => ({ ...r, deltas: 0 }));
  expect(seenOf(unseen, exchanges, name)).toBe(false);
});

describe('a clean conversation', () => {
  const call = (id: string, args = '{"path":"a"}') => ({
    id,
    type: 'function',
    function: { name: 'read_file', arguments: args },
  });
  const system = { role: 'system', content: 's' };
  const user = { role: 'user', content: 'u' };

  test('tool calls each answered by their id pass', () => {
    const messages = [
      system,
      user,
      { role: 'assistant', content: null, tool_calls: [call('c1'), call('c2')] },
      { role: 'tool', tool_call_id: 'c2', content: 'b' },
      { role: 'tool', tool_call_id: 'c1', content: 'a' },
    ];
    expect(checkConversation(messages)).toEqual({ toolCalls: 2, faults: [] });
  });

  test('an unanswered call, an answer to no call, malformed arguments and a call without an id are faults', () => {
    const messages = [
      system,
      user,
      {
        role: 'assistant',
        tool_calls: [call('c1'), call('c2', '{"path": "a"'), { function: { name: 'x', arguments: '[]' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a' },
      { role: 'tool', tool_call_id: 'c9', content: '?' },
      user,
    ];
    expect(checkConversation(messages).faults).toEqual([
      'message 2: a tool call (read_file) with arguments that are not JSON',
      'message 2: a tool call without an id',
      'message 2: a tool call (x) with arguments that are not a JSON object',
      'message 4: a tool result for no open call (c9)',
      'message 5: calls left unanswered (c2)',
    ]);
  });

  test('a conversation that ends with its last calls unanswered is a fault', () => {
    const messages = [system, user, { role: 'assistant', tool_calls: [call('c1')] }];
    expect(checkConversation(messages).faults).toEqual(['the conversation ends with calls unanswered (c1)']);
  });
});

describe("a step's tool runs, read from its history", () => {
  const codecs = payloadCodecs({ compression: true });

  /**
   * A scheduled runTool event (input encoded as the worker does) and, unless `done` is false, its
   * completion with the tool's outcome (`ok` or the tool's error).
   */
  async function toolRun(
    eventId: number,
    args: string,
    done: false | 'ok' | 'error',
  ): Promise<temporal.api.history.v1.IHistoryEvent[]> {
    const [input] = await encodeWith(codecs, { name: 'write_file', arguments: args });
    const [result] = await encodeWith(codecs, { ok: done === 'ok', output: done === 'ok' ? 'written' : 'error: no' });
    const { HistoryEvent } = temporal.api.history.v1;
    const scheduled = HistoryEvent.fromObject({
      eventId,
      activityTaskScheduledEventAttributes: { activityType: { name: 'runTool' }, input: { payloads: [input] } },
    });
    const completed = HistoryEvent.fromObject({
      eventId: eventId + 1,
      activityTaskCompletedEventAttributes: { scheduledEventId: eventId, result: { payloads: [result] } },
    });
    return done ? [scheduled, completed] : [scheduled];
  }

  test('a compressed input (a long write) is decoded; only completed runs count, and only ok ones as done', async () => {
    const long = JSON.stringify({ path: 'brief.md', content: 'x'.repeat(2000) });
    const events = [
      ...(await toolRun(5, long, 'ok')),
      ...(await toolRun(9, long, false)),
      ...(await toolRun(12, long, 'error')),
    ];
    expect(events[0]?.activityTaskScheduledEventAttributes?.input?.payloads?.[0]?.metadata?.['encoding']).toEqual(
      Buffer.from('binary/deflate'),
    );
    expect(await stepToolRuns(codecs, 's1', [{ events }])).toEqual({
      stepId: 's1',
      call: `write_file ${canonical(JSON.parse(long))}`.slice(0, 120),
      runs: 3,
      completed: 2,
      succeeded: 1,
    });
  });
});

async function encodeWith(codecs: PayloadCodec[], value: unknown): Promise<Payload[]> {
  let payloads = [defaultPayloadConverter.toPayload(value)];
  for (const codec of codecs) payloads = await codec.encode(payloads);
  return payloads;
}
