/**
 * A write tool that cannot honour its idempotency key runs at most once: when its
 * activity fails — here the worker running it is SIGKILLed mid-call, so the activity times out
 * on its heartbeat — Temporal does not start it again on the worker that takes over. The step
 * history holds one attempt; the side effect happened once; the step fails saying why.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { STAMPED, STAMPS } from '../fixtures/user-tools/stamp-tools';
import { agentTestbed } from '../harness/agent-testbed';
import { stateOf, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { runInfo } from '../harness/run-info';
import { uniqueId } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const bed = agentTestbed();
let workers: WorkerProcess[] = [];

afterEach(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  workers = [];
});

test('a non-idempotent write whose activity fails is not retried: one attempt, one stamp', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'stamp-'));
  const env = {
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: uniqueId('stamp-queue'),
    OPENAI_BASE_URL: bed.llm.baseUrl,
    CAIRN_MODEL: 'scripted-model',
    CAIRN_WORKSPACE: workspace,
    CAIRN_TOOLS: join(__dirname, '..', 'fixtures', 'user-tools', 'stamp-tools.ts'),
    CAIRN_AUTO_APPROVE: 'stamp',
  };
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('stamp', { line: 'stamp-1' }, 'st1'), finish('unreachable')],
      summary: [reply.text('done')],
    }),
  );
  workers.push(await startWorkerProcess(env));
  const handle: WorkflowHandle<typeof agentWorkflow> = await bed.client.workflow.start(agentWorkflow, {
    taskQueue: env.CAIRN_TASK_QUEUE,
    workflowId: uniqueId('agent-stamp'),
    args: [{ task: 'stamp once', onStepFailure: 'continue' }],
  });
  await waitUntil('the stamp was written', () => existsSync(agentFile(workspace, handle.workflowId, STAMPED)), {
    timeoutMs: 60_000,
  });
  await workers[0]?.kill('SIGKILL');
  workers.push(await startWorkerProcess(env));

  expect(await handle.result()).toMatchObject({ status: 'completed' });
  const step1 = bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`);
  const events = (await step1.fetchHistory()).events ?? [];
  const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool');
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0]?.activityTaskScheduledEventAttributes?.retryPolicy?.maximumAttempts).toBe(1);
  const runToolId = scheduled[0]?.eventId;
  const attempts = events.flatMap((e) =>
    e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === runToolId?.toString()
      ? [e.activityTaskStartedEventAttributes?.attempt]
      : [],
  );
  expect(attempts).toEqual([1]);
  expect(events.some((e) => e.activityTaskTimedOutEventAttributes)).toBe(true);
  expect(readFileSync(agentFile(workspace, handle.workflowId, STAMPS), 'utf8')).toBe('stamp-1\n');
  // The step failed on the lost call rather than guessing whether it happened.
  const state = await stateOf(handle);
  expect(state.steps[0]).toMatchObject({ id: 's1', status: 'failed' });
  expect(state.steps[0]?.error).toMatch(/timed out|timeout/i);
  expect(bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1')).toHaveLength(1);
}, 120_000);
