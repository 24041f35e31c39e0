/**
 * The real-model suite's judge: each check of the contract flags what it must, from the proxy's
 * records, the stand-in's notes and the step histories' repeated calls — and a clean run of
 * every kind breaks none.
 */
import { AGENT_CASES, type AgentCase } from '../../real-model/agents';
import {
  DEFAULT_IDENTICAL_CALL_LIMIT,
  identicalCallLimit,
  violations,
  type AgentEvidence,
} from '../../real-model/checks';
import type { Exchange } from '../../real-model/recording-proxy';
import type { AgentRun } from '../../real-model/stand-in';
import { createAgentState } from '../../workflows/model/agent/agent-state';
import type { AgentState } from '../../workflows/model/agent/agent-state';

const caseNamed = (name: string): AgentCase => {
  const found = AGENT_CASES.find((a) => a.name === name);
  if (!found) throw new Error(`no agent case ${name}`);
  return found;
};

function completedState(): AgentState {
  const state = createAgentState('task');
  state.phase = 'completed';
  state.plan = {
    task: 'task',
    language: 'en',
    steps: [{ id: 's1', title: 'S', description: 'd', depends_on: [] }],
    replan: [],
  };
  state.steps = [
    { id: 's1', title: 'S', status: 'completed', usage: state.usage, toolCalls: [], rounds: 1, attempts: 1 },
  ];
  return state;
}

function run(extra: Partial<AgentRun> = {}): AgentRun {
  return {
    id: 'a',
    outcome: 'completed',
    state: completedState(),
    approvals: [],
    answered: {},
    refused: [],
    wallMs: 1,
    ...extra,
  };
}

const call = (extra: Partial<Exchange> = {}): Exchange => ({
  at: 0,
  durationMs: 1,
  purpose: 'step',
  path: '/v1/chat/completions',
  status: 200,
  maxTokens: 512,
  completionTokens: 100,
  tools: 1,
  messages: 2,
  toolCalls: 0,
  conversationToolCalls: 0,
  conversationFaults: [],
  ...extra,
});

const evidence = (extra: Partial<AgentEvidence> = {}): AgentEvidence => ({
  agent: caseNamed('list-read'),
  run: run(),
  exchanges: [call(), call({ purpose: 'plan' })],
  repeated: [],
  deltas: 0,
  ...extra,
});

const checksOf = (e: AgentEvidence): string[] => violations(e).map((v) => v.check);

describe('real-model checks', () => {
  test('a completed planning agent with bounded calls breaks no check', () => {
    expect(violations(evidence())).toEqual([]);
  });

  test('an agent still running at the time limit, or failed without a code or an explanation', () => {
    expect(checksOf(evidence({ run: run({ outcome: 'timed out' }) }))).toContain('ends in time');
    const state = completedState();
    state.phase = 'failed';
    state.events.push({ seq: 1, at: 0, type: 'agent.finished', message: 'failed: ' });
    expect(checksOf(evidence({ run: run({ outcome: 'failed', state }) }))).toEqual(
      expect.arrayContaining(['specific code', 'explained']),
    );
    state.events[0] = { seq: 1, at: 0, type: 'agent.finished', message: 'failed: s1 used up its 30 rounds' };
    expect(violations(evidence({ run: run({ outcome: 'failed', code: 'STEP_ROUNDS_EXHAUSTED', state }) }))).toEqual([]);
  });

  test('a call without max_tokens, and a reply longer than the max_tokens sent', () => {
    const { maxTokens: _, ...unbounded } = call();
    expect(checksOf(evidence({ exchanges: [unbounded] }))).toEqual(['max_tokens sent']);
    expect(checksOf(evidence({ exchanges: [call({ completionTokens: 513 })] }))).toEqual(['reply within max_tokens']);
  });

  test('a context overflow (the server says so, or Cairn codes it) and LLM_REJECTED', () => {
    const overflow = call({
      status: 400,
      error: 'request (9000 tokens) exceeds the available context size (8192 tokens)',
    });
    expect(checksOf(evidence({ exchanges: [overflow] }))).toEqual(['no context overflow']);
    const rejected = run({
      outcome: 'failed',
      code: 'STEP_FAILED',
      message: 's1 failed: LLM_REJECTED: 400 bad request',
    });
    expect(checksOf(evidence({ run: rejected }))).toContain('no LLM_REJECTED');
  });

  test('the same digest put to the person twice in one step; once in each of two steps is fine', () => {
    const asked = (interactionId: string, stepId: string) => ({
      interactionId,
      stepId,
      tool: 'write_file',
      digest: 'd1',
    });
    expect(checksOf(evidence({ run: run({ approvals: [asked('i1', 's1'), asked('i2', 's2')] }) }))).toEqual([]);
    expect(checksOf(evidence({ run: run({ approvals: [asked('i1', 's1'), asked('i2', 's1')] }) }))).toEqual([
      'digest asked once',
    ]);
  });

  test('a step that ran the same call more often than the identical-call limit', () => {
    const limit = identicalCallLimit(caseNamed('list-read'));
    expect(limit).toBeGreaterThanOrEqual(1);
    expect(DEFAULT_IDENTICAL_CALL_LIMIT).toBe(3);
    const repeated = (runs: number) => [
      { stepId: 's1', call: 'read_file {"path":"x"}', runs, completed: runs, succeeded: runs },
    ];
    expect(checksOf(evidence({ repeated: repeated(limit) }))).toEqual([]);
    expect(checksOf(evidence({ repeated: repeated(limit + 1) }))).toEqual(['identical-call limit']);
  });

  test('a conversation the proxy found unclean', () => {
    const faulty = call({ conversationToolCalls: 1, conversationFaults: ['message 2: calls left unanswered (c1)'] });
    expect(violations(evidence({ exchanges: [faulty] }))).toEqual([
      { check: 'clean conversation', detail: 'step: message 2: calls left unanswered (c1)' },
    ]);
  });

  test('a planning agent without a plan or a step run; a ReAct agent needs no plan of its own', () => {
    const state = createAgentState('task');
    state.phase = 'failed';
    state.events.push({ seq: 1, at: 0, type: 'agent.finished', message: 'failed: the plan was invalid three times' });
    const noPlan = run({ outcome: 'failed', code: 'PLAN_INVALID', state });
    expect(checksOf(evidence({ run: noPlan }))).toEqual(['valid plan', 'steps started']);
    expect(checksOf(evidence({ agent: caseNamed('react'), run: run() }))).toEqual([]);
  });
});

describe('an agent there for one mechanism', () => {
  const approval = { interactionId: 'i1', stepId: 's1', tool: 'write_file', digest: 'd' };

  test('the write-approval agent has shown its mechanism only once an approval was asked and answered', () => {
    const wanted = caseNamed('write-approval').exercises;
    if (!wanted) throw new Error('write-approval names no mechanism');
    expect(wanted.attempts).toBeGreaterThan(1);
    expect(wanted.done(run())).toBe(false);
    expect(wanted.done(run({ approvals: [approval] }))).toBe(false);
    expect(wanted.done(run({ approvals: [approval], answered: { 'tool.approval': 1 } }))).toBe(true);
  });
});
