/**
 * The global LLM rate limit: LLM calls run on their own task queue whose workers share a
 * server-side rate (`maxTaskQueueActivitiesPerSecond`). With two workers and 5 calls/s, the
 * server never hands out more LLM calls than the limit allows in any 10 s window (its own
 * dispatch times, from the histories), and the scripted model sees the same within the few
 * milliseconds a request takes to arrive. Each worker has its own identity, and the histories
 * show both served LLM calls — so the limit held across two workers, not one.
 */
import type { Client } from '@temporalio/client';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { lookupTool } from '../../testkit/lookup-tool';
import { testConfig, withWorker } from '../harness/test-env';

const bed = agentTestbed();
const RATE = 5;
const STEPS = 8;
const ROUNDS = 8;
const WORKER_A = 'rate-worker-a';
const WORKER_B = 'rate-worker-b';
const WORKERS = [WORKER_A, WORKER_B];

test(`two workers together stay under ${RATE} LLM calls per second`, async () => {
  const config = testConfig(bed.llm, { CAIRN_LLM_RATE_LIMIT: String(RATE) });
  const ids = Array.from({ length: STEPS }, (_, i) => `p${i + 1}`);
  const rounds = (id: string) => [
    ...Array.from({ length: ROUNDS - 1 }, (_, r) => reply.toolCall('lookup', { key: `${id}-${r}` })),
    finish(`${id} done`),
  ];
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan(ids.map((id) => step(id))))],
      ...Object.fromEntries(ids.map((id) => [`step:${id}`, rounds(id)])),
      summary: [reply.text('done')],
    }),
  );
  const lookup = lookupTool();
  let agentId = '';
  await withWorker(
    config,
    () =>
      withWorker(
        config,
        async () => {
          const handle = await startAgent(bed.client, config, { task: 'busy', limits: { maxParallelSteps: STEPS } });
          await handle.result();
          agentId = handle.workflowId;
        },
        [lookup.tool],
        { identity: WORKER_B },
      ),
    [lookup.tool],
    { identity: WORKER_A },
  );
  const received = bed.llm.requests.map((r) => r.receivedAt).sort((a, b) => a - b);
  const dispatches = await llmDispatches(bed.client, [agentId, ...ids.map((id) => `${agentId}/step-${id}`)]);
  const dispatched = dispatches.map((d) => d.time);
  expect(received).toHaveLength(STEPS * ROUNDS + 2);
  expect(dispatched).toHaveLength(received.length);
  const servedBy = Object.fromEntries(WORKERS.map((w) => [w, dispatches.filter((d) => d.identity === w).length]));
  process.stdout.write(`LLM calls served: ${JSON.stringify(servedBy)}\n`);
  expect(dispatches.filter((d) => !WORKERS.includes(d.identity))).toEqual([]);
  expect(WORKERS.filter((w) => !servedBy[w])).toEqual([]); // no worker sat idle: both served calls
  const seconds = ((received.at(-1) ?? 0) - (received[0] ?? 0)) / 1000;
  process.stdout.write(
    `LLM rate limit: ${received.length} calls in ${seconds.toFixed(1)} s; busiest 10 s window ` +
      `${busiest(dispatched)} dispatched by the server, ${busiest(received)} received by the model\n`,
  );
  // Judged on the server's dispatch times (history), where the limit acts: one second's burst on
  // top of the steady rate is what a token bucket may allow, and N calls need (N - RATE) / RATE
  // seconds at least. Arrivals at the model are only reported: on a busy machine, calls
  // dispatched apart can reach it together.
  expect(busiest(dispatched)).toBeLessThanOrEqual(RATE * 10 + RATE);
  const spread = ((dispatched.at(-1) ?? 0) - (dispatched[0] ?? 0)) / 1000;
  expect(spread).toBeGreaterThanOrEqual((dispatched.length - RATE) / RATE - 1);
}, 120_000);

/** The most calls in any 10 s window starting at a call. */
function busiest(times: number[]): number {
  return Math.max(...times.map((start) => times.filter((t) => t >= start && t < start + 10_000).length));
}

/** When the server handed each `callLlm` activity to a worker (ActivityTaskStarted), in ms, and to which. */
async function llmDispatches(client: Client, workflowIds: string[]): Promise<{ time: number; identity: string }[]> {
  const dispatches: { time: number; identity: string }[] = [];
  for (const id of workflowIds) {
    const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
    const llmCalls = new Set(
      events
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callLlm')
        .map((e) => Number(e.eventId)),
    );
    for (const e of events) {
      const started = e.activityTaskStartedEventAttributes;
      if (started && llmCalls.has(Number(started.scheduledEventId)) && e.eventTime) {
        const time = Number(e.eventTime.seconds) * 1000 + Math.floor((e.eventTime.nanos ?? 0) / 1e6);
        dispatches.push({ time, identity: started.identity ?? '' });
      }
    }
  }
  return dispatches.sort((a, b) => a.time - b.time);
}
