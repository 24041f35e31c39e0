/**
 * The waiting policy: an unanswered interaction reminds, then expires after the configured
 * time on durable timers (visible in history with a summary), and the policy decides.
 */
import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker } from '../harness/test-env';

const bed = agentTestbed();

test('an approval nobody answers reminds, expires, and is rejected; the model is told', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'expiry-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('write_file', { path: 'x.txt', content: 'x' }, 'w1'), finish('could not write')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, {
      task: 'write unattended',
      interactionTimeout: { afterMs: 2000, remindAfterMs: 1000, onExpiry: 'reject' },
    });
    await handle.result();
    const state = await stateOf(handle);
    const approval = state.interactions[0];
    expect(approval).toMatchObject({ kind: 'tool.approval', status: 'expired', by: 'policy:reject' });
    expect(approval?.expiresAt).toBe((approval?.createdAt ?? 0) + 2000);
    expect(state.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['interaction.reminder', 'interaction.expired']),
    );
    expect(existsSync(agentFile(workspace, handle.workflowId, 'x.txt'))).toBe(false);
    const second = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1')[1];
    expect(JSON.stringify(second?.body.messages.at(-1))).toContain(
      'the user rejected this call: nobody approved it in time',
    );
    const timers = ((await handle.fetchHistory()).events ?? []).flatMap((e) =>
      e.timerStartedEventAttributes ? [e.userMetadata?.summary?.data] : [],
    );
    expect(timers.map((d) => Buffer.from(d ?? new Uint8Array()).toString())).toEqual(['"remind i1"', '"expire i1"']);
  });
});

test('a plan check nobody answers is confirmed under the default policy', async () => {
  bed.llm.respondWith(
    byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('ran')], summary: [reply.text('done')] }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'plan unattended',
      mode: { confirmPlan: true },
      interactionTimeout: { afterMs: 1000, onExpiry: 'default' },
    });
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const state = await stateOf(handle);
    expect(state.interactions[0]).toMatchObject({
      kind: 'plan.check',
      status: 'expired',
      answer: { decision: 'confirm' },
    });
  });
});

test('under the fail policy an unanswered question fails the agent with INTERACTION_EXPIRED', async () => {
  bed.llm.respondWith(byRoute({ plan: [reply.toolCall('ask_user', { kind: 'query', prompt: 'Anyone?' })] }));
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'ask unattended',
      mode: { ask: true },
      interactionTimeout: { afterMs: 1000, onExpiry: 'fail' },
    });
    await expect(handle.result()).rejects.toThrow();
    const state = await stateOf(handle);
    expect(state.phase).toBe('failed');
    expect(state.error).toMatch(/i1 \(ask\.query\) expired unanswered/);
  });
});

test('under the cancel policy an unanswered approval cancels the agent, stopping a running step', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2')]))],
      'step:s1': [reply.toolCall('write_file', { path: 'x.txt', content: 'x' }, 'w1')],
      'step:s2': [reply.hang()],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'cancel unattended',
      interactionTimeout: { afterMs: 1500, onExpiry: 'cancel' },
    });
    expect(await handle.result()).toMatchObject({ status: 'cancelled' });
    const state = await stateOf(handle);
    expect(state.phase).toBe('cancelled');
    expect(state.steps.map((s) => s.status)).toEqual(['cancelled', 'cancelled']);
    expect(state.events.at(-1)?.message).toMatch(/cancelled: i1 \(tool\.approval\) expired unanswered/);
    const child = await bed.client.workflow.getHandle(`${handle.workflowId}/step-s2`).describe();
    expect(child.status.name).toBe('CANCELLED');
  });
});
