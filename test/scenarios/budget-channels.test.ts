/**
 * The `budget` interaction answered through the channels other than the web page: the HTTP
 * route `POST /api/agents/:id/answers` (signed in with a token, and without authentication) and
 * the workflow's `answer` signal — from a client, and from the `temporal` CLI with a plain JSON
 * payload as the Temporal UI sends it. Each answer has its effect — a `raise` lets the held step
 * go on and the agent completes, a `stop` ends it `stopped` with no further model call — and is
 * audited like every answer: who (`by`) and the actor with its method on the interaction, and in
 * `GET /api/agents/:id/audit` with the pauses, resumes and end. (`cairn answer` as a process:
 * test/e2e/budget-cli.test.ts.)
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AgentSummary } from '../../client/agents/agent-client';
import type { AuditEntry } from '../../client/agents/audit-entries';
import { answerSignal } from '../../workflows/contract/messages';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { agentTestbed } from '../harness/agent-testbed';
import { stateOf, waitForState } from '../harness/agents';
import { BUDGET, REQUESTS_WHEN_HELD, startHeldOnBudget } from '../harness/budget-crossing';
import { expectNoNewRequests } from '../harness/no-new-requests';
import { withWorker } from '../harness/test-env';
import { signalByTemporalCli } from '../harness/temporal-cli';
import { tokenApp } from '../harness/token-app';
import { waitUntil } from '../../testkit/wait-until';
import { testApp } from '../harness/http-app';

const bed = agentTestbed();
const RAISED = 1000;

const tokens = { ana: 'budget-token-of-ana-approver-0', ops: 'budget-token-of-ops-operator-0' };

/** The app signed in with API tokens: Ana may answer, ops may pause and resume. */
function signedInApp(): OpenAPIHono {
  return tokenApp(bed.client, bed.config.taskQueue, [
    { principal: 'ana', name: 'Ana Silva', roles: ['approver'], token: tokens.ana },
    { principal: 'ops', roles: ['operator'], token: tokens.ops },
  ]);
}

/** The app without authentication (loopback), as test/integration/http-api.test.ts makes it. */
function openApp(): OpenAPIHono {
  return testApp(bed.client, bed.config.taskQueue);
}

const as = (who: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[who]}` });

function post(app: OpenAPIHono, path: string, body: unknown, headers: Record<string, string> = {}) {
  return app.request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

async function auditOf(app: OpenAPIHono, id: string, headers: Record<string, string> = {}): Promise<AuditEntry[]> {
  const res = await app.request(`/api/agents/${id}/audit`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: AuditEntry[] }).entries;
}

/** The interaction's audit record on the state, and its entry in the audit route. */
function expectAudited(
  state: AgentState,
  entries: AuditEntry[],
  interactionId: string,
  { decision, ...who }: { decision: 'raise' | 'stop'; by: string; actor: object },
): void {
  const record = state.interactions.find((i) => i.id === interactionId);
  expect(record).toMatchObject({ status: 'answered', answer: { decision }, ...who });
  expect(record?.answeredAt).toEqual(expect.any(Number));
  expect(entries.filter((e) => e.interactionId === interactionId)).toEqual([
    { at: record?.answeredAt, what: 'budget answered', interactionId, kind: 'budget', decision, ...who },
  ]);
}

/** What the audit says, in order. */
const whats = (entries: AuditEntry[]) => entries.map((e) => e.what);

test('HTTP, signed in: a raise by the approver while ops also paused it — the agent waits for the resume, then completes; all audited', async () => {
  await withWorker(bed.config, async () => {
    const app = signedInApp();
    const { handle, budget } = await startHeldOnBudget(bed);
    const id = handle.workflowId;

    // An operator pauses the agent the budget already holds: two reasons now.
    const paused = await post(app, `/api/agents/${id}/pause`, { reason: 'checking the bill' }, as('ops'));
    expect(paused.status).toBe(202);
    await waitForState(handle, 'held for both', (s) => s.hold?.reasons.length === 2);

    const res = await post(
      app,
      `/api/agents/${id}/answers`,
      { interactionId: budget.id, answer: { decision: 'raise', tokenBudget: RAISED } },
      as('ana'),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      interactionId: budget.id,
      answer: { decision: 'raise', tokenBudget: RAISED },
    });
    // The raise lifts the budget's hold only: the operator's pause still holds the step.
    const raised = await waitForState(handle, 'the budget hold lifted', (s) => s.hold?.reasons.length === 1);
    expect(raised).toMatchObject({ phase: 'paused', tokenBudget: RAISED, hold: { reasons: ['pause'], by: 'ops' } });
    await expectNoNewRequests(bed.llm, REQUESTS_WHEN_HELD, 500);

    expect((await post(app, `/api/agents/${id}/resume`, {}, as('ops'))).status).toBe(202);
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done within the raised budget' });
    const state = await stateOf(handle);
    expect(state).toMatchObject({ phase: 'completed', tokenBudget: RAISED });
    expect(state.hold).toBeUndefined();
    expect(state.steps.map((s) => [s.id, s.status, s.result])).toEqual([['a', 'completed', 'result-a']]);

    const entries = await auditOf(app, id, as('ops'));
    expectAudited(state, entries, budget.id, {
      decision: 'raise',
      by: 'ana',
      actor: { id: 'ana', name: 'Ana Silva', roles: ['approver'], method: 'api', authenticatedBy: 'token' },
    });
    expect(whats(entries)).toEqual([
      'paused (budget)',
      'paused (pause) by ops: checking the bill',
      'budget answered',
      'budget hold lifted',
      'pause hold lifted by ops',
      'completed',
    ]);
  });
});

test('HTTP without authentication: a stop ends the agent stopped (budget), no further model call; the body’s by is audited', async () => {
  await withWorker(bed.config, async () => {
    const app = openApp();
    const { handle, budget } = await startHeldOnBudget(bed);
    const id = handle.workflowId;
    // Held by its budget, the agent lists as paused (its AgentPhase search attribute).
    await waitUntil('listed as paused', async () => {
      const res = await app.request('/api/agents?phase=paused');
      const { agents } = (await res.json()) as { agents: AgentSummary[] };
      return agents.find((a) => a.id === id && a.phase === 'paused');
    });
    const res = await post(app, `/api/agents/${id}/answers`, {
      interactionId: budget.id,
      answer: { decision: 'stop' },
      by: 'bob',
    });
    expect(res.status).toBe(200);
    const result = await handle.result();
    expect(result.status).toBe('stopped');
    const state = await stateOf(handle);
    expect(state).toMatchObject({ phase: 'stopped', stopReason: 'budget' });
    expect(state.tokenBudget).toBeUndefined(); // never raised
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([['a', 'cancelled']]);
    expect(bed.llm.requests).toHaveLength(REQUESTS_WHEN_HELD); // no summary, no further round
    expect(state.usage.totalTokens).toBe(BUDGET.usedWhenHeld);

    const entries = await auditOf(app, id);
    expectAudited(state, entries, budget.id, {
      decision: 'stop',
      by: 'bob',
      actor: { id: 'bob', roles: ['admin'], method: 'api', authenticatedBy: 'none' },
    });
    expect(whats(entries)).toEqual(['paused (budget)', 'budget answered', 'stopped: budget']);
  });
});

test('the answer signal: a raise below what was used is rejected on the timeline, a good one completes; temporal-signal audited', async () => {
  await withWorker(bed.config, async () => {
    const app = openApp();
    const { handle, budget } = await startHeldOnBudget(bed);
    const by = 'someone@temporal-ui';
    await handle.signal(answerSignal, {
      interactionId: budget.id,
      answer: { decision: 'raise', tokenBudget: BUDGET.usedWhenHeld - 10 },
      by,
    });
    const refused = await waitForState(handle, 'the rejection on the timeline', (s) =>
      s.events.some((e) => e.type === 'answer.rejected'),
    );
    expect(refused.phase).toBe('paused');
    expect(refused.interactions.find((i) => i.id === budget.id)?.status).toBe('open');
    await expectNoNewRequests(bed.llm, REQUESTS_WHEN_HELD, 500);

    await handle.signal(answerSignal, {
      interactionId: budget.id,
      answer: { decision: 'raise', tokenBudget: RAISED },
      by,
    });
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const state = await stateOf(handle);
    expect(state.tokenBudget).toBe(RAISED);
    const entries = await auditOf(app, handle.workflowId);
    expectAudited(state, entries, budget.id, {
      decision: 'raise',
      by,
      actor: { id: by, roles: [], method: 'temporal-signal' },
    });
    expect(whats(entries)).toEqual(['paused (budget)', 'budget answered', 'budget hold lifted', 'completed']);
  });
});

test('the answer signal by `temporal workflow signal` (plain JSON, as the Temporal UI sends it): a stop ends the agent stopped with no further model call; temporal-signal audited', async () => {
  await withWorker(bed.config, async () => {
    const app = openApp();
    const { handle, budget } = await startHeldOnBudget(bed);
    await signalByTemporalCli(handle.workflowId, answerSignal.name, {
      interactionId: budget.id,
      answer: { decision: 'stop' },
      by: 'ui-user',
    });
    expect((await handle.result()).status).toBe('stopped');
    const state = await stateOf(handle);
    expect(state).toMatchObject({ phase: 'stopped', stopReason: 'budget' });
    expect(bed.llm.requests).toHaveLength(REQUESTS_WHEN_HELD);
    const entries = await auditOf(app, handle.workflowId);
    expectAudited(state, entries, budget.id, {
      decision: 'stop',
      by: 'ui-user',
      actor: { id: 'ui-user', roles: [], method: 'temporal-signal' },
    });
    expect(whats(entries)).toEqual(['paused (budget)', 'budget answered', 'stopped: budget']);
  });
});
