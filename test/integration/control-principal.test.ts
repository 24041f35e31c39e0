/**
 * Pauses, resumes and cancellations name who did them
 * (docs/operations.md#who-answered-the-audit-record): through the HTTP API each carries the
 * authenticated principal to the agent (pause and resume by update, a cancellation announced by
 * the `recordCancel` update before Temporal's cancellation), so the timeline's events and the
 * audit keep `actor: { id, name, roles, method }`. A `pause` signal sent to Temporal directly
 * cannot claim an actor.
 */
import { recordHistory } from '../harness/histories';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AuditEntry } from '../../client/agents/audit-entries';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { pauseSignal } from '../../workflows/contract/messages';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { tokenApp } from '../harness/token-app';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

const tokens = { ops: 'token-of-olga-the-operator-00', vic: 'token-of-vic-the-viewer-00000' };

const as = (who: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[who]}` });

function appFor(): OpenAPIHono {
  return tokenApp(bed.client, bed.config.taskQueue, [
    { principal: 'olga', name: 'Olga Ops', roles: ['operator'], token: tokens.ops },
    { principal: 'vic', roles: ['viewer'], token: tokens.vic },
  ]);
}

function post(app: OpenAPIHono, path: string, body: unknown, who: keyof typeof tokens) {
  return app.request(path, {
    method: 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...as(who) },
  });
}

async function read<T>(app: OpenAPIHono, path: string): Promise<T> {
  const res = await app.request(path, { headers: as('vic') });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}

const OLGA = { id: 'olga', name: 'Olga Ops', roles: ['operator'], method: 'api', authenticatedBy: 'token' };

test('pause, resume and cancel through the API are audited with the principal who did them', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('done')] }));
  await withWorker(bed.config, async () => {
    const app = appFor();
    const started = await post(app, '/api/agents', { task: 'Wait for me', mode: { confirmPlan: true } }, 'ops');
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    const path = `/api/agents/${id}`;
    await waitUntil('the plan check opens', async () =>
      (await read<AgentState>(app, path)).interactions.some((i) => i.status === 'open'),
    );

    // Straight to Temporal, a pause signal's claimed actor is dropped: only its `by` text stays.
    await bed.client.workflow
      .getHandle(id)
      .signal(pauseSignal, { by: 'mallory', actor: { id: 'boss', roles: ['admin'], method: 'web' } } as never);
    await waitUntil('the signal pauses it', async () => (await read<AgentState>(app, path)).phase === 'paused');
    expect((await post(app, `${path}/resume`, undefined, 'ops')).status).toBe(202);
    expect((await post(app, `${path}/pause`, { reason: 'lunch' }, 'ops')).status).toBe(202);
    expect((await post(app, `${path}/cancel`, undefined, 'ops')).status).toBe(202);

    const state = await waitUntil('the agent is cancelled', async () => {
      const s = await read<AgentState>(app, path);
      return s.phase === 'cancelled' ? s : undefined;
    });
    const decisions = state.events.filter((e) => ['agent.paused', 'agent.resumed', 'agent.finished'].includes(e.type));
    expect(decisions[0]).toMatchObject({ type: 'agent.paused', message: 'paused (pause) by mallory' });
    expect(decisions[0]).not.toHaveProperty('actor');
    expect(decisions.slice(1)).toEqual([
      expect.objectContaining({ type: 'agent.resumed', message: 'pause hold lifted by olga', actor: OLGA }),
      expect.objectContaining({ type: 'agent.paused', message: 'paused (pause) by olga: lunch', actor: OLGA }),
      expect.objectContaining({ type: 'agent.finished', message: 'cancelled by olga', actor: OLGA }),
    ]);
    expect(JSON.stringify(state)).not.toContain('boss');

    const { entries } = await read<{ entries: AuditEntry[] }>(app, `${path}/audit`);
    const controls = entries
      .filter((e) => e.interactionId === undefined && e.kind === undefined)
      .map(({ at: _at, ...entry }) => entry);
    expect(controls).toEqual([
      { what: 'paused (pause) by mallory' },
      { what: 'pause hold lifted by olga', by: 'olga', actor: OLGA },
      { what: 'paused (pause) by olga: lunch', by: 'olga', actor: OLGA },
      { what: 'cancelled by olga', by: 'olga', actor: OLGA },
    ]);
    // The pause and resume updates and recordCancel, kept for the replay gate.
    await recordHistory('agent-control-updates', bed.client.workflow.getHandle(id));
  });
});

test('a cancel body "by" naming someone else is refused and cancels nothing', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('done')] }));
  await withWorker(bed.config, async () => {
    const app = appFor();
    const started = await post(app, '/api/agents', { task: 'Keep me', mode: { confirmPlan: true } }, 'ops');
    const { id } = (await started.json()) as { id: string };
    const path = `/api/agents/${id}`;
    await waitUntil('the plan check opens', async () =>
      (await read<AgentState>(app, path)).interactions.some((i) => i.status === 'open'),
    );
    const refused = await post(app, `${path}/cancel`, { by: 'the-boss' }, 'ops');
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'BY_MISMATCH',
    ]);
    expect((await read<AgentState>(app, path)).cancelRequest).toBeUndefined();
    expect((await post(app, `${path}/cancel`, undefined, 'ops')).status).toBe(202);
    await waitUntil('the agent is cancelled', async () => (await read<AgentState>(app, path)).phase === 'cancelled');
  });
});
