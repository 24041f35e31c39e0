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
import { createAgentState } from '../../workflows/agent/agent-state';

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

/** A run in which every mechanism was exercised once. */
function fullRun(): { results: AgentEvidence[]; exchanges: Exchange[] } {
  const planned = createAgentState('task');
  planned.events.push({ seq: 1, at: 0, type: 'plan.created', message: 'plan r1' });
  const results: AgentEvidence[] = [
    {
      agent: caseNamed('write-approval'),
      run: run({
        approvals: [{ interactionId: 'i1', tool: 'write_file', digest: 'd' }],
        answered: { 'tool.approval': 1 },
      }),
      exchanges: [],
      repeated: [{ stepId: 'main', call: 'write_file {}', runs: 1, completed: 1 }],
      deltas: 12,
    },
    {
      agent: caseNamed('ask-plan-check'),
      run: run({ state: planned, answered: { 'plan.check': 1 } }),
      exchanges: [],
      repeated: [],
      deltas: 0,
    },
  ];
  const exchanges = [
    exchange({ purpose: 'plan', responseFormat: 'json_schema', streamed: true, chunks: 30 }),
    exchange({ conversationToolCalls: 1 }),
  ];
  return { results, exchanges };
}

test('a run that exercised every mechanism and broke nothing passes; one violation fails it', () => {
  const { results, exchanges } = fullRun();
  const seen = mechanisms(results, exchanges);
  expect(seen.filter((m) => !m.seen)).toEqual([]);
  expect(verdict(0, seen, false)).toBe('PASS');
  expect(verdict(1, seen, false)).toBe('FAIL');
  expect(verdict(0, seen, true)).toBe('FAIL'); // the model server died
});

test('a model that never calls tools leaves the run INCONCLUSIVE, naming what was not seen', () => {
  const { results, exchanges } = fullRun();
  const noTools = results.map((r) => ({ ...r, repeated: [], run: { ...r.run, approvals: [], answered: {} } }));
  const seen = mechanisms(
    noTools,
    exchanges.filter((e) => e.conversationToolCalls === 0),
  );
  expect(seen.filter((m) => !m.seen).map((m) => m.name)).toEqual([
    'tool calls ran',
    'an approval was asked and answered',
    'a plan was checked',
    'conversations carried tool calls back to the model',
  ]);
  expect(verdict(0, seen, false)).toBe('INCONCLUSIVE');
});

test('a plan asked for without a structured-output format, or never parsed, is not evidence of structured output', () => {
  const { results, exchanges } = fullRun();
  const plain = exchanges.map((e) => (e.purpose === 'plan' ? { ...e, responseFormat: undefined } : e));
  const name = 'a structured-output plan was requested and parsed';
  expect(mechanisms(results, plain).find((m) => m.name === name)?.seen).toBe(false);
  const unparsed = results.map((r) => ({ ...r, run: { ...r.run, state: createAgentState('task') } }));
  expect(mechanisms(unparsed, exchanges).find((m) => m.name === name)?.seen).toBe(false);
});

test('streaming is seen only when an answer came in chunks and a live viewer received deltas', () => {
  const { results, exchanges } = fullRun();
  const name = 'model calls streamed and their deltas reached a live viewer';
  expect(mechanisms(results, exchanges).find((m) => m.name === name)?.seen).toBe(true);
  const whole = exchanges.map((e) => ({ ...e, streamed: false }));
  expect(mechanisms(results, whole).find((m) => m.name === name)?.seen).toBe(false);
  const unseen = results.map((r) => ({ ...r, deltas: 0 }));
  expect(mechanisms(unseen, exchanges).find((m) => m.name === name)?.seen).toBe(false);
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

  /** A scheduled runTool event (input encoded as the worker does) and, if `done`, its completion. */
  async function toolRun(
    eventId: number,
    args: string,
    done: boolean,
  ): Promise<temporal.api.history.v1.IHistoryEvent[]> {
    const [input] = await encodeWith(codecs, { name: 'write_file', arguments: args });
    const { HistoryEvent } = temporal.api.history.v1;
    const scheduled = HistoryEvent.fromObject({
      eventId,
      activityTaskScheduledEventAttributes: { activityType: { name: 'runTool' }, input: { payloads: [input] } },
    });
    const completed = HistoryEvent.fromObject({
      eventId: eventId + 1,
      activityTaskCompletedEventAttributes: { scheduledEventId: eventId },
    });
    return done ? [scheduled, completed] : [scheduled];
  }

  test('a compressed input (a long write) is decoded, and only completed runs count as completed', async () => {
    const long = JSON.stringify({ path: 'brief.md', content: 'x'.repeat(2000) });
    const events = [...(await toolRun(5, long, true)), ...(await toolRun(9, long, false))];
    expect(events[0]?.activityTaskScheduledEventAttributes?.input?.payloads?.[0]?.metadata?.['encoding']).toEqual(
      Buffer.from('binary/deflate'),
    );
    expect(await stepToolRuns(codecs, 's1', [{ events }])).toEqual({
      stepId: 's1',
      call: `write_file ${canonical(JSON.parse(long))}`.slice(0, 120),
      runs: 2,
      completed: 1,
    });
  });
});

async function encodeWith(codecs: PayloadCodec[], value: unknown): Promise<Payload[]> {
  let payloads = [defaultPayloadConverter.toPayload(value)];
  for (const codec of codecs) payloads = await codec.encode(payloads);
  return payloads;
}
