/**
 * The global LLM rate limit: LLM calls run on their own task queue whose workers share a
 * server-side rate (`maxTaskQueueActivitiesPerSecond`). With two workers and 5 calls/s, the
 * scripted model never sees more than the limit allows in any 10 s window.
 */
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, startAgent, step } from '../harness/agents';
import { lookupTool } from '../harness/lookup-tool';
import { testConfig, withWorker } from '../harness/test-env';

const bed = agentTestbed();
const RATE = 5;
const STEPS = 8;
const ROUNDS = 8;

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
  await withWorker(
    config,
    () =>
      withWorker(config, async () => {
        const handle = await startAgent(bed.client, config, { task: 'busy', limits: { maxParallelSteps: STEPS } });
        await handle.result();
      }, [lookup.tool]),
    [lookup.tool],
  );
  const times = bed.llm.requests.map((r) => r.receivedAt).sort((a, b) => a - b);
  expect(times).toHaveLength(STEPS * ROUNDS + 2);
  const inWindow = (start: number) => times.filter((t) => t >= start && t < start + 10_000).length;
  const busiest = Math.max(...times.map(inWindow));
  const seconds = ((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000;
  process.stdout.write(
    `LLM rate limit: ${times.length} calls in ${seconds.toFixed(1)} s; busiest 10 s window ${busiest}\n`,
  );
  // One second's burst on top of the steady rate is what a token bucket may allow.
  expect(busiest).toBeLessThanOrEqual(RATE * 10 + RATE);
  expect(seconds).toBeGreaterThanOrEqual((times.length - RATE) / RATE - 1);
}, 120_000);
