/**
 * An endpoint that echoes the API key in its 401 (some do) must not leak it: the key appears
 * nowhere in the workflow history, the agent state or the worker's log, while the (redacted)
 * message itself does reach all three — so the check is not passing on an empty haystack.
 */
import { waitUntil } from '../../testkit/wait-until';
import { randomBytes } from 'node:crypto';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { stateOf, type AgentHandle } from '../harness/agents';
import { runInfo } from '../harness/run-info';
import { uniqueId } from '../harness/test-env';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const bed = agentTestbed();
let worker: WorkerProcess | undefined;

afterEach(async () => {
  await worker?.kill('SIGTERM');
});

/** The history as text, every payload decoded (payload data are JSON bytes). */
async function historyText(handle: AgentHandle): Promise<string> {
  const history = await handle.fetchHistory();
  return JSON.stringify(history, (_key, value: unknown) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value,
  );
}

test('a key echoed in a 401 reaches neither history, nor state, nor the worker log', async () => {
  const key = `sk-live-${randomBytes(16).toString('hex')}`;
  const echo = `Incorrect API key provided: ${key}. You sent "Authorization: Bearer ${key}"`;
  bed.llm.respondWith(byRoute({ plan: [reply.error(401, echo)] }));
  const taskQueue = uniqueId('redact-queue');
  const started = await startWorkerProcess({
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: taskQueue,
    OPENAI_BASE_URL: bed.llm.baseUrl,
    OPENAI_API_KEY: key,
    CAIRN_MODEL: 'scripted-model',
  });
  worker = started;
  const handle: AgentHandle = await bed.client.workflow.start('agentWorkflow', {
    taskQueue,
    workflowId: uniqueId('agent-redact'),
    args: [{ task: 'leak nothing' }],
  });
  await expect(handle.result()).rejects.toThrow();
  // The fake really received the key: the test would prove nothing otherwise.
  expect(bed.llm.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);

  const state = await stateOf(handle);
  expect(state.error).toMatch(/Incorrect API key provided: \[redacted\]/);
  expect(JSON.stringify(state)).not.toContain(key);

  const history = await historyText(handle);
  expect(history).toMatch(/Incorrect API key provided: \[redacted\]/);
  expect(history).not.toContain(key);

  // The worker logs the failed call on its own schedule (the SDK forwards its logs in batches):
  // wait for the line, then check the whole log.
  const redacted = /Incorrect API key provided: \[redacted\]/;
  await waitUntil('the worker logs the failed call', () => (redacted.test(started.output()) ? true : undefined));
  expect(started.output()).not.toContain(key);
}, 90_000);
