/**
 * The agent routes act on agents only (client/workflow-kind-guard.ts). A namespace holds other
 * applications' workflows too; one of them — here `payrollWorkflow`, a type no Cairn worker
 * registers, started by another client on its own task queue — is answered exactly like a
 * missing agent: every agent route refuses it with 404 `NOT_FOUND`, for an operator, an approver
 * and a viewer alike, and its history shows that Cairn sent it nothing (no cancel request, no
 * signal, no update).
 */
import { temporal } from '@temporalio/proto';
import { tokenApp } from '../harness/token-app';
import { closeClient, connectClient, uniqueId } from '../harness/test-env';
import type { Client } from '@temporalio/client';

let client: Client;
beforeAll(async () => {
  client = await connectClient();
});
afterAll(async () => {
  await closeClient(client);
});

const tokens = {
  ops: 'token-of-olga-the-operator-00',
  ann: 'token-of-ann-the-approver-000',
  vic: 'token-of-vic-viewer-00000000',
};

/** The event types Cairn's routes would add to a workflow they act on. */
const ACTED_ON = new Set([
  'EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED',
  'EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED',
  'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED',
  'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED',
]);

test('every agent route answers 404 for a workflow of another type, and sends it nothing', async () => {
  const payrollId = uniqueId('payroll-2026-11');
  const payroll = await client.workflow.start('payrollWorkflow', {
    taskQueue: uniqueId('payroll-queue'),
    workflowId: payrollId,
    args: [{ month: '2026-11' }],
  });
  try {
    const app = tokenApp(client, uniqueId('cairn-queue'), [
      { principal: 'olga', roles: ['operator'], token: tokens.ops },
      { principal: 'ann', roles: ['approver'], token: tokens.ann },
      { principal: 'vic', roles: ['viewer'], token: tokens.vic },
    ]);
    const call = (who: keyof typeof tokens, method: 'GET' | 'POST', path: string, body?: unknown) =>
      app.request(`/api/agents/${encodeURIComponent(payrollId)}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${tokens[who]}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const refused = async (route: string, sent: Response | Promise<Response>) => {
      const res = await sent;
      const body = (await res.json()) as { error?: { code?: string } };
      expect({ route, status: res.status, code: body.error?.code }).toEqual({ route, status: 404, code: 'NOT_FOUND' });
    };
    // The changes first: on a route without the guard each would act at once (a cancel is 202).
    await refused('cancel', call('ops', 'POST', '/cancel', { reason: 'not yours' }));
    await refused('pause', call('ops', 'POST', '/pause'));
    await refused('resume', call('ops', 'POST', '/resume'));
    await refused(
      'answer',
      call('ann', 'POST', '/answers', { interactionId: 'plan-1', answer: { decision: 'confirm' } }),
    );
    await refused('state', call('vic', 'GET', ''));
    await refused('audit', call('vic', 'GET', '/audit'));
    await refused('events', call('vic', 'GET', '/events'));

    const events = (await payroll.fetchHistory()).events ?? [];
    const types = events.map((e) => temporal.api.enums.v1.EventType[e.eventType ?? 0]);
    expect(types.filter((t) => t !== undefined && ACTED_ON.has(t))).toEqual([]);
    expect((await payroll.describe()).status.name).toBe('RUNNING');
  } finally {
    await payroll.terminate('test over');
  }
});
