/**
 * How a state reads to people (client/status-display.ts), the same on the web page and in the
 * CLI: a running step of a held agent shows `paused`, a pending step of an ended agent `not run`,
 * a step links to its workflow only once it started, "waiting for input" is not repeated beside
 * "awaiting input", and an ended agent's answer box does not say "yet". And who acted from the
 * web page without authentication is `web` for answers and controls alike, never `anonymous`.
 */
import type { AgentsPort } from '../../client/agents/agents-port';
import { formatState } from '../../client/agents/cli/render';
import { noAnswerText, showsWaitingBadge, stepDisplayStatus, stepHasWorkflow } from '../../client/status-display';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { AGENT_PHASES, TERMINAL_PHASES } from '../../workflows/model/state/agent-phases';
import { STEP_STATUSES } from '../../workflows/model/state/step-run-schema';
import { appOver } from '../harness/http-app';

const held = { phase: 'paused', hold: { reasons: ['pause'] } };

test('a running step of a held agent shows paused; every other status shows as it is while the agent runs', () => {
  expect(stepDisplayStatus({ status: 'running' }, held)).toBe('paused');
  expect(stepDisplayStatus({ status: 'running' }, { phase: 'paused', hold: { reasons: ['budget'] } })).toBe('paused');
  for (const status of STEP_STATUSES.filter((s) => s !== 'running')) {
    expect(stepDisplayStatus({ status }, held)).toBe(status);
  }
  for (const status of STEP_STATUSES) expect(stepDisplayStatus({ status }, { phase: 'executing' })).toBe(status);
  expect(stepDisplayStatus({ status: 'running' }, { phase: 'executing', hold: { reasons: [] } })).toBe('running');
});

test('a pending step of an ended agent shows not run; of a running agent, pending', () => {
  for (const phase of TERMINAL_PHASES) expect(stepDisplayStatus({ status: 'pending' }, { phase })).toBe('not run');
  for (const phase of AGENT_PHASES.filter((p) => !(TERMINAL_PHASES as readonly string[]).includes(p))) {
    expect(stepDisplayStatus({ status: 'pending' }, { phase })).toBe('pending');
  }
});

test('links, badges and the answer box', () => {
  expect(stepHasWorkflow({ status: 'pending', attempts: 0 })).toBe(false);
  expect(stepHasWorkflow({ status: 'skipped', attempts: 0 })).toBe(false);
  expect(stepHasWorkflow({ status: 'pending', attempts: 1 })).toBe(true); // retried: its workflow ran once
  expect(showsWaitingBadge('awaiting_input', true)).toBe(false);
  expect(showsWaitingBadge('executing', true)).toBe(true);
  expect(showsWaitingBadge('executing', false)).toBe(false);
  expect(noAnswerText('executing')).toBe('No answer yet.');
  expect(noAnswerText('cancelled')).toBe('No answer: the agent ended cancelled.');
  for (const phase of TERMINAL_PHASES) expect(noAnswerText(phase)).not.toContain('yet');
});

test('cairn show reads a state the same way', () => {
  const step = (id: string, status: AgentState['steps'][number]['status']) =>
    ({
      id,
      title: `Step ${id}`,
      status,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      toolCalls: [],
      rounds: 0,
      attempts: 1,
    }) as AgentState['steps'][number];
  const base = {
    task: 't',
    revision: 1,
    interactions: [],
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  };
  const paused = {
    ...base,
    phase: 'paused',
    hold: { reasons: ['pause'], resumePhase: 'executing' },
    steps: [step('a', 'running')],
  } as unknown as AgentState;
  expect(formatState('agent-x', paused)).toMatch(/^ {2}paused +\[a\] Step a$/m);
  const cancelled = {
    ...base,
    phase: 'cancelled',
    steps: [step('a', 'cancelled'), step('b', 'pending')],
  } as unknown as AgentState;
  expect(formatState('agent-x', cancelled)).toMatch(/^ {2}not run +\[b\] Step b$/m);
});

describe('who acted from the web page without authentication', () => {
  const calls: { what: string; by?: string; actor?: { id: string } }[] = [];
  const record =
    (what: string) =>
    (_id: string, request?: { by?: string; actor?: { id: string } }): Promise<undefined> => {
      calls.push({ what, ...(request?.by !== undefined ? { by: request.by } : {}), actor: request?.actor });
      return Promise.resolve(undefined);
    };
  const agents = {
    answer: (_id: string, input: { by?: string; actor?: { id: string } }) => {
      calls.push({ what: 'answer', ...(input.by !== undefined ? { by: input.by } : {}), actor: input.actor });
      return Promise.resolve({ interactionId: 'i1', answer: { decision: 'confirm' } });
    },
    cancel: record('cancel'),
    pause: record('pause'),
    resume: record('resume'),
  } as unknown as AgentsPort;
  const app = appOver(agents);
  const post = (path: string, body: unknown, client?: string) =>
    app.request(`/api/agents/agent-x${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(client ? { 'X-Cairn-Client': client } : {}) },
      body: JSON.stringify(body),
    });

  beforeEach(() => calls.splice(0));

  test('answers, pauses, resumes and cancels from the page are all by "web"', async () => {
    expect((await post('/answers', { interactionId: 'i1', answer: { decision: 'confirm' } }, 'web')).status).toBe(200);
    for (const action of ['pause', 'resume', 'cancel']) expect((await post(`/${action}`, {}, 'web')).status).toBe(202);
    expect(calls.map((c) => [c.what, c.by, c.actor?.id])).toEqual([
      ['answer', 'web', 'web'],
      ['pause', 'web', 'web'],
      ['resume', 'web', 'web'],
      ['cancel', 'web', 'web'],
    ]);
  });

  test('from another client the body names who, as before', async () => {
    expect((await post('/pause', { by: 'ops' }, 'cli')).status).toBe(202);
    expect((await post('/pause', {})).status).toBe(202);
    expect(calls.map((c) => [c.by, c.actor?.id])).toEqual([
      ['ops', 'ops'],
      [undefined, 'anonymous'],
    ]);
  });
});
