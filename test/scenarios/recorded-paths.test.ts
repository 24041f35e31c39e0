/**
 * Runs of the paths the replay corpus lacked — a tool approval, expiry timers, a cancellation,
 * a `sub_agent`, a question asked inside a step — each checked for its outcome and, with
 * CAIRN_RECORD_HISTORIES=1, saved (agent and step histories) into the current release's folder of
 * test/fixtures/histories for test/replay to replay.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, waitForState, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { LOCAL_ACTIVITY_MARKER } from '../harness/activity-attempts';
import { recordHistory } from '../harness/histories';
import { testConfig, withWorker } from '../harness/test-env';

const bed = agentTestbed();

const stepHandle = (agentId: string, stepId: string) => bed.client.workflow.getHandle(`${agentId}/step-${stepId}`);

/** Summaries of the timers a workflow started, in order. */
async function timerSummaries(agentId: string): Promise<string[]> {
  const events = (await bed.client.workflow.getHandle(agentId).fetchHistory()).events ?? [];
  return events.flatMap((e) =>
    e.timerStartedEventAttributes && e.userMetadata?.summary?.data
      ? [JSON.parse(Buffer.from(e.userMetadata.summary.data).toString()) as string]
      : [],
  );
}

test('approval: a write waits for its tool.approval, runs once approved', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'recorded-approval-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('write_file', { path: 'note.txt', content: 'approved' }, 'w1'), finish('wrote')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'write with approval' });
    const approval = await waitForInteraction(handle, 'tool.approval', 's1');
    await answer(handle, approval.id, { decision: 'approve', digest: approval.digest }, 'alice');
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
    expect(readFileSync(agentFile(workspace, handle.workflowId, 'note.txt'), 'utf8')).toBe('approved');
    expect((await stateOf(handle)).interactions).toEqual([
      expect.objectContaining({ kind: 'tool.approval', status: 'answered', by: 'alice', stepId: 's1' }),
    ]);
    await recordHistory('agent-approval', handle);
    await recordHistory('step-approval', stepHandle(handle.workflowId, 's1'));
  });
});

test('tool catalogue: read by a local activity, so the first workflow task also schedules the plan call', async () => {
  bed.llm.respondWith(
    byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('ran')], summary: [reply.text('done')] }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'read the catalogue' });
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const events = (await handle.fetchHistory()).events ?? [];
    const activities = events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(activities).toEqual(['callLlm', 'callLlm']); // plan and summary: no listTools activity task
    const localActivity = events.findIndex(
      (e) => e.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER,
    );
    const planCall = events.findIndex((e) => e.activityTaskScheduledEventAttributes);
    expect(localActivity).toBeGreaterThan(0);
    expect(planCall).toBeGreaterThan(localActivity);
    // One workflow task ran the catalogue read and scheduled the plan call: none started between them.
    expect(events.slice(localActivity, planCall).filter((e) => e.workflowTaskStartedEventAttributes)).toEqual([]);
    // The planner was given the catalogue the local activity read.
    expect(JSON.stringify(bed.llm.requestsFor('plan')[0]?.body.messages)).toContain('read_file');
    await recordHistory('agent-local-catalogue', handle);
  });
});

test('expiry timers: an unanswered plan check is reminded, then confirmed by the default policy', async () => {
  bed.llm.respondWith(
    byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('ran')], summary: [reply.text('done')] }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'nobody checks',
      mode: { confirmPlan: true },
      interactionTimeout: { afterMs: 2000, remindAfterMs: 1000, onExpiry: 'default' },
    });
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const state = await stateOf(handle);
    expect(state.interactions[0]).toMatchObject({ kind: 'plan.check', status: 'expired', by: 'policy:default' });
    expect(state.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['interaction.reminder', 'interaction.expired']),
    );
    expect(await timerSummaries(handle.workflowId)).toEqual(['remind i1', 'expire i1']);
    await recordHistory('agent-expiry', handle);
  });
});

test('cancellation: a cancel request mid-step stops the step and its call, keeping finished work', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2', ['s1'])]))],
      'step:s1': [finish('kept')],
      'step:s2': [reply.hang()],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'cancel me' });
    await waitForState(handle, 's2 running', (s) => s.steps[1]?.status === 'running');
    await bed.llm.waitForRequests(3);
    await handle.cancel();
    const error = await handle.result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    expect((await stateOf(handle)).steps.map((s) => [s.id, s.status])).toEqual([
      ['s1', 'completed'],
      ['s2', 'cancelled'],
    ]);
    await recordHistory('agent-cancel', handle);
    await recordHistory('step-cancel', stepHandle(handle.workflowId, 's2'));
  });
});

test('sub_agent: a step hands a task to a nested agent and gets its answer', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('n1')]))],
      'step:s1': [reply.toolCall('sub_agent', { task: 'Find the detail' }, 'sa1'), finish('used it')],
      'step:n1': [finish('the detail')],
      summary: [reply.text('nested answer'), reply.text('final')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'delegate' });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'final' });
    const nested = bed.client.workflow.getHandle(`${handle.workflowId}/step-s1/sub-sa1`);
    expect(await nested.result()).toMatchObject({ status: 'completed', answer: 'nested answer' });
    await recordHistory('step-sub-agent', stepHandle(handle.workflowId, 's1'));
    await recordHistory('agent-nested', nested);
  });
});

test('a question inside a step: the agent opens it, the answer goes back to the step', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('ask_user', { kind: 'query', prompt: 'Which region?' }, 'q1'), finish('eu noted')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'ask from a step' });
    const question = await waitForInteraction(handle, 'ask.query', 's1');
    await answer(handle, question.id, { text: 'eu-west' }, 'bob');
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const second = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1')[1];
    const toolMessage = second?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'q1');
    expect(toolMessage?.content).toBe(JSON.stringify({ text: 'eu-west' }));
    await recordHistory('agent-step-question', handle);
    await recordHistory('step-question', stepHandle(handle.workflowId, 's1'));
  });
});
