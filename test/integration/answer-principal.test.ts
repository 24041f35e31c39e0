/**
 * Who answered comes from authentication, not from the request
 * (docs/operations.md#who-answered-the-audit-record): signed in, a body `by` naming someone else
 * is refused (400 BY_MISMATCH) and changes nothing, a principal without `approver` is refused
 * (403 FORBIDDEN) — as is one without the interaction's role (403 ROLE_REQUIRED: `approver`
 * unless the agent's `answerRoles` name another) — and the accepted answer's audit record keeps
 * the principal's id, name, roles and method. An answer sent to Temporal directly by signal is recorded as `temporal-signal`,
 * whatever actor its payload claims.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { stepWorkflowId } from '../../workflows/base/ids';
import { answerSignal } from '../../workflows/contract/messages';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { historyText } from '../harness/history-text';
import { expectNothingChanged } from '../harness/nothing-changed';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { tokenApp } from '../harness/token-app';

const bed = agentTestbed();

const tokens = {
  ana: 'token-of-ana-the-approver-000',
  vic: 'token-of-vic-the-viewer-0000',
  ops: 'token-of-ops-0000000000',
};

function appFor(): OpenAPIHono {
  return tokenApp(bed.client, bed.config.taskQueue, [
    { principal: 'ana', name: 'Ana Silva', roles: ['approver'], token: tokens.ana },
    { principal: 'vic', roles: ['viewer'], token: tokens.vic },
    { principal: 'ops', roles: ['operator'], token: tokens.ops },
  ]);
}

const as = (who: keyof typeof tokens, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${tokens[who]}`,
  ...extra,
});

function post(app: OpenAPIHono, path: string, body: unknown, headers: Record<string, string>) {
  return app.request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

async function stateOf(app: OpenAPIHono, id: string): Promise<AgentState> {
  const res = await app.request(`/api/agents/${id}`, { headers: as('vic') });
  if (res.status !== 200) throw new Error(`state of ${id}: ${res.status}`);
  return (await res.json()) as AgentState;
}

const script = () =>
  byRoute({
    plan: [planReply(plan([step('s1')]))],
    'step:s1': [finish('done')],
    summary: [reply.text('all done')],
  });

async function startWaiting(
  app: OpenAPIHono,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; interactionId: string }> {
  const body = { task: 'Needs a human', mode: { confirmPlan: true }, ...extra };
  const started = await post(app, '/api/agents', body, as('ops'));
  expect(started.status).toBe(201);
  const { id } = (await started.json()) as { id: string };
  const interactionId = await waitUntil('the plan check opens', async () => {
    const open = (await stateOf(app, id)).interactions.find((i) => i.kind === 'plan.check' && i.status === 'open');
    return open?.id;
  });
  return { id, interactionId };
}

test('the principal answers: a viewer is refused, a foreign "by" is refused, the audit keeps the principal', async () => {
  bed.llm.respondWith(script());
  await withWorker(bed.config, async () => {
    const app = appFor();
    const { id, interactionId } = await startWaiting(app);
    const answers = `/api/agents/${id}/answers`;
    const refused = (body: unknown, who: keyof typeof tokens) =>
      expectNothingChanged(
        () => stateOf(app, id),
        bed.llm,
        interactionId,
        async () => {
          const res = await post(app, answers, body, as(who));
          return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
        },
      );
    const confirm = { decision: 'confirm' };
    expect(await refused({ interactionId, answer: confirm }, 'vic')).toEqual([403, 'FORBIDDEN']);
    // An operator passes the route, but a plan check nobody named a role for needs an approver.
    expect(await refused({ interactionId, answer: confirm }, 'ops')).toEqual([403, 'ROLE_REQUIRED']);
    expect(await refused({ interactionId, answer: confirm, by: 'the-boss' }, 'ana')).toEqual([400, 'BY_MISMATCH']);

    const ok = await post(
      app,
      answers,
      { interactionId, answer: confirm, by: 'ana' },
      as('ana', { 'x-cairn-client': 'cli' }),
    );
    expect(ok.status).toBe(200);
    const done = await waitUntil('the agent completes', async () => {
      const state = await stateOf(app, id);
      return state.phase === 'completed' ? state : undefined;
    });
    const record = done.interactions.find((i) => i.id === interactionId);
    expect(record).toMatchObject({
      status: 'answered',
      by: 'ana',
      actor: { id: 'ana', name: 'Ana Silva', roles: ['approver'], method: 'cli', authenticatedBy: 'token' },
    });
    expect(record?.answeredAt).toEqual(expect.any(Number));
    // The audit view lists the answer with its principal, then the end.
    const audit = await app.request(`/api/agents/${id}/audit`, { headers: as('vic') });
    const { entries } = (await audit.json()) as { entries: { what: string; by?: string; actor?: unknown }[] };
    expect(entries[0]).toEqual({
      at: record?.answeredAt,
      what: 'plan.check answered',
      interactionId,
      kind: 'plan.check',
      decision: 'confirm',
      by: 'ana',
      actor: { id: 'ana', name: 'Ana Silva', roles: ['approver'], method: 'cli', authenticatedBy: 'token' },
    });
    expect(entries.map((e) => e.what)).toEqual(['plan.check answered', expect.stringContaining('completed')]);
    // No API token reached the histories of the run (the agent's and its step's).
    const texts: string[] = [];
    for (const wf of [id, stepWorkflowId(id, 's1')]) {
      texts.push(...historyText(await bed.client.workflow.getHandle(wf).fetchHistory()));
    }
    const history = texts.join('\n');
    expect(history).toContain('Ana Silva'); // the scan reads the decoded payloads
    expect(Object.values(tokens).filter((token) => history.includes(token))).toEqual([]);
  });
});

test('an answer sent straight to Temporal is recorded as temporal-signal, with the by it claims and never the actor', async () => {
  bed.llm.respondWith(script());
  await withWorker(bed.config, async () => {
    const app = appFor();
    const { id, interactionId } = await startWaiting(app);
    await bed.client.workflow.getHandle(id).signal(answerSignal, {
      interactionId,
      answer: { decision: 'confirm' },
      by: 'someone@temporal-ui',
      // A signal claiming to be a signed-in admin on the web page: the claim is not believed.
      actor: { id: 'ana', name: 'Ana Silva', roles: ['admin'], method: 'web' },
    });
    const done = await waitUntil('the agent completes', async () => {
      const state = await stateOf(app, id);
      return state.phase === 'completed' ? state : undefined;
    });
    expect(done.interactions.find((i) => i.id === interactionId)).toMatchObject({
      by: 'someone@temporal-ui',
      actor: { id: 'someone@temporal-ui', roles: [], method: 'temporal-signal' },
    });
    // The kept history of the patch that stopped trusting a signal's actor (cairn-signal-actor-untrusted).
    await recordHistory('agent-answer-signal-actor', bed.client.workflow.getHandle(id));
  });
});

test('signed in, a pause and a resume are by the principal; a foreign "by" is refused and the agent stays as it was', async () => {
  bed.llm.respondWith(script());
  await withWorker(bed.config, async () => {
    const app = appFor();
    const { id } = await startWaiting(app);
    const foreign = await post(app, `/api/agents/${id}/pause`, { by: 'the-boss' }, as('ops'));
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('BY_MISMATCH');
    expect((await stateOf(app, id)).phase).toBe('awaiting_input');

    expect((await post(app, `/api/agents/${id}/pause`, { reason: 'checking' }, as('ops'))).status).toBe(202);
    const paused = await waitUntil('the agent pauses', async () => {
      const state = await stateOf(app, id);
      return state.phase === 'paused' ? state : undefined;
    });
    expect(paused.hold).toMatchObject({ by: 'ops', reason: 'checking' });
    const foreignResume = await post(app, `/api/agents/${id}/resume`, { by: 'the-boss' }, as('ops'));
    expect(foreignResume.status).toBe(400);
    expect(((await foreignResume.json()) as { error: { code: string } }).error.code).toBe('BY_MISMATCH');
    expect((await stateOf(app, id)).phase).toBe('paused');

    expect((await post(app, `/api/agents/${id}/resume`, { by: 'ops' }, as('ops'))).status).toBe(202);
    const resumed = await waitUntil('the agent resumes', async () => {
      const state = await stateOf(app, id);
      return state.phase === 'awaiting_input' ? state : undefined;
    });
    const ops = { id: 'ops', roles: ['operator'], method: 'api', authenticatedBy: 'token' };
    const controls = resumed.events.filter((e) => e.type === 'agent.paused' || e.type === 'agent.resumed');
    expect(controls.map(({ type, message, actor }) => ({ type, message, actor }))).toEqual([
      { type: 'agent.paused', message: 'paused (pause) by ops: checking', actor: ops },
      { type: 'agent.resumed', message: 'pause hold lifted by ops', actor: ops },
    ]);
  });
});

test('answerRoles: a plan check named for operators is answered by one, refused to an approver and to a signal', async () => {
  bed.llm.respondWith(script());
  await withWorker(bed.config, async () => {
    const app = appFor();
    // Tool approvals never go below approver, whoever starts the agent.
    const lowered = await post(
      app,
      '/api/agents',
      { task: 'x', answerRoles: { 'tool.approval': 'operator' } },
      as('ops'),
    );
    expect(lowered.status).toBe(400);
    expect(((await lowered.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');

    const { id, interactionId } = await startWaiting(app, { answerRoles: { 'plan.check': 'operator' } });
    expect((await stateOf(app, id)).interactions.find((i) => i.id === interactionId)?.role).toBe('operator');
    const confirm = { decision: 'confirm' };
    const refusedTo = (who: keyof typeof tokens) =>
      expectNothingChanged(
        () => stateOf(app, id),
        bed.llm,
        interactionId,
        async () => {
          const res = await post(app, `/api/agents/${id}/answers`, { interactionId, answer: confirm }, as(who));
          return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
        },
      );
    expect(await refusedTo('ana')).toEqual([403, 'ROLE_REQUIRED']);
    // Straight to Temporal, no role is vouched for: the signal is recorded as rejected.
    await bed.client.workflow.getHandle(id).signal(answerSignal, { interactionId, answer: confirm, by: 'ui' });
    await waitUntil('the signal is rejected', async () =>
      (await stateOf(app, id)).events.some(
        (e) => e.type === 'answer.rejected' && e.message.includes('needs the role operator'),
      )
        ? true
        : undefined,
    );
    expect((await stateOf(app, id)).interactions.find((i) => i.id === interactionId)?.status).toBe('open');

    const ok = await post(app, `/api/agents/${id}/answers`, { interactionId, answer: confirm }, as('ops'));
    expect(ok.status).toBe(200);
    const done = await waitUntil('the agent completes', async () => {
      const state = await stateOf(app, id);
      return state.phase === 'completed' ? state : undefined;
    });
    expect(done.interactions.find((i) => i.id === interactionId)).toMatchObject({
      status: 'answered',
      role: 'operator',
      actor: { id: 'ops', roles: ['operator'], method: 'api' },
    });
  });
});
