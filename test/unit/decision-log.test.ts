/** The audit keeps every decision past the timeline's window and a step's recent calls (decision-log.ts). */
import { auditOf } from '../../client/agents/audit-entries';
import {
  MAX_EVENTS,
  MAX_TOOL_CALLS_KEPT,
  addEvent,
  addToolCall,
  createAgentState,
  type StepRun,
} from '../../workflows/model/agent/agent-state';
import { MAX_DECISION_TEXT, MAX_DECISIONS_KEPT, logPolicyDecision } from '../../workflows/model/agent/decision-log';
import type { ToolCallRecord } from '../../workflows/model/tools/tool-types';

const ops = { id: 'olga', name: 'Olga Ops', roles: ['operator'], method: 'api' as const };

/** `n` pause/resume pairs, each pause by Olga, with progress events between them. */
function pausesAndResumes(state: ReturnType<typeof createAgentState>, n: number): void {
  for (let k = 0; k < n; k++) {
    addEvent(state, k * 10, { type: 'agent.paused', message: `paused by olga (${k})`, actor: ops });
    addEvent(state, k * 10 + 1, { type: 'tool.called', message: 'read_file → ok' });
    addEvent(state, k * 10 + 2, { type: 'agent.resumed', message: `resumed (${k})` });
  }
}

const call = (k: number): ToolCallRecord => ({
  callId: `c${k}`,
  name: 'write_file',
  arguments: '{}',
  outcome: 'ok',
  durationMs: 1,
  policy: { decision: 'allow', rule: 'notes', at: 1000 + k },
});

test('pauses and resumes older than the timeline window stay in the audit, with who', () => {
  const state = createAgentState('t');
  pausesAndResumes(state, MAX_EVENTS); // three events each: the timeline keeps a third of them
  expect(state.events.length).toBe(MAX_EVENTS);
  const audit = auditOf(state);
  expect(audit.filter((e) => e.what.startsWith('paused'))).toHaveLength(MAX_EVENTS);
  expect(audit.filter((e) => e.what.startsWith('resumed'))).toHaveLength(MAX_EVENTS);
  expect(audit[0]).toEqual({ at: 0, what: 'paused by olga (0)', by: 'olga', actor: ops });
});

test('policy decisions on calls a step no longer lists stay in the audit', () => {
  const state = createAgentState('t');
  const step: StepRun = {
    id: 's1',
    title: 's',
    status: 'running',
    rounds: 0,
    attempts: 1,
    usage: state.usage,
    toolCalls: [],
  };
  const calls = MAX_TOOL_CALLS_KEPT + 20;
  for (let k = 0; k < calls; k++) {
    addToolCall(step, call(k));
    logPolicyDecision(state, 's1', call(k));
  }
  expect(step.toolCalls).toHaveLength(MAX_TOOL_CALLS_KEPT);
  const policy = auditOf(state).filter((e) => e.kind === 'policy');
  expect(policy).toHaveLength(calls);
  expect(policy[0]).toEqual({
    at: 1000,
    what: 'policy allow write_file (rule notes)',
    kind: 'policy',
    by: 'policy',
    decision: 'allow',
    rule: 'notes',
    tool: 'write_file',
    stepId: 's1',
  });
});

/**
 * The bound docs/operations.md#approval-policies states ("the log keeps the newest 1,000"),
 * written here rather than read from the code, so that changing the constant fails this file.
 */
const DOCUMENTED_DECISIONS_KEPT = 1000;

test('the log is bounded at the documented 1,000 and the audit says how many it dropped', () => {
  expect(MAX_DECISIONS_KEPT).toBe(DOCUMENTED_DECISIONS_KEPT);
  const state = createAgentState('t');
  const pairs = DOCUMENTED_DECISIONS_KEPT / 2 + 3; // two decisions per pair: six over the bound
  pausesAndResumes(state, pairs);
  expect(state.decisions).toHaveLength(DOCUMENTED_DECISIONS_KEPT);
  expect(state.decisionsDropped).toBe(6);
  const audit = auditOf(state);
  expect(audit[0]?.kind).toBe('dropped');
  expect(audit[0]?.what).toMatch(/^6 earlier decisions/);
  expect(audit[1]?.what).toBe('paused by olga (3)');
});

test('a state of a run begun before the log still lists its recent decisions from the timeline', () => {
  const state = createAgentState('t');
  delete state.decisions;
  pausesAndResumes(state, 2);
  expect(state.decisions).toBeUndefined();
  expect(auditOf(state).map((e) => e.what)).toEqual([
    'paused by olga (0)',
    'resumed (0)',
    'paused by olga (1)',
    'resumed (1)',
  ]);
});

test('a long pause reason is cut in the log (the timeline keeps it whole)', () => {
  const state = createAgentState('t');
  const message = `paused (pause) by olga: ${'x'.repeat(2000)}`;
  addEvent(state, 1, { type: 'agent.paused', message, actor: ops });
  expect(state.events.at(-1)?.message).toBe(message);
  expect(state.decisions?.[0]?.what).toHaveLength(MAX_DECISION_TEXT);
});
