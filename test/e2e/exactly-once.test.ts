/**
 * Exactly-once side effects across a crash: the worker process is SIGKILLed after
 * a write tool wrote and before its activity completed; a new worker retries the call with the
 * same idempotency key, the ledger answers, and the line was appended once.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
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

test('SIGKILL after the write, before completion: after restart the write happened once', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'crash-'));
  const env = {
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: uniqueId('crash-queue'),
    OPENAI_BASE_URL: bed.llm.baseUrl,
    CAIRN_MODEL: 'scripted-model',
    CAIRN_WORKSPACE: workspace,
    CAIRN_TOOLS: join(__dirname, '..', 'fixtures', 'user-tools', 'append-tools.ts'),
    CAIRN_AUTO_APPROVE: 'append_line',
  };
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('append_line', { file: 'log.txt', line: 'entry-1' }, 'a1'), finish('appended')],
      summary: [reply.text('done')],
    }),
  );
  workers.push(await startWorkerProcess(env));
  const handle = await bed.client.workflow.start('agentWorkflow', {
    taskQueue: env.CAIRN_TASK_QUEUE,
    workflowId: uniqueId('agent-crash'),
    args: [{ task: 'append a line' }],
  });
  await waitUntil(
    'the line was appended',
    () => existsSync(agentFile(workspace, handle.workflowId, 'log.txt.written')),
    { timeoutMs: 60_000 },
  );
  await workers[0]?.kill('SIGKILL');

  workers.push(await startWorkerProcess(env));
  await handle.result();
  expect(readFileSync(agentFile(workspace, handle.workflowId, 'log.txt'), 'utf8')).toBe('entry-1\n');
  const history = (await bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`).fetchHistory()).events ?? [];
  // The tool call itself really was retried: its one activity started a second time.
  const toolActivities = history.flatMap((e) =>
    e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool' ? [String(e.eventId)] : [],
  );
  expect(toolActivities).toHaveLength(1);
  const toolAttempts = history.flatMap((e) =>
    toolActivities.includes(String(e.activityTaskStartedEventAttributes?.scheduledEventId))
      ? [e.activityTaskStartedEventAttributes?.attempt ?? 0]
      : [],
  );
  expect(toolAttempts).toHaveLength(1);
  expect(toolAttempts[0]).toBeGreaterThanOrEqual(2);
  expect(
    history.some((e) => toolActivities.includes(String(e.activityTaskCompletedEventAttributes?.scheduledEventId))),
  ).toBe(true);
  const typed = await stateOf(bed.client.workflow.getHandle(handle.workflowId));
  expect(typed.steps[0]).toMatchObject({ status: 'completed', result: 'appended' });
}, 120_000);
