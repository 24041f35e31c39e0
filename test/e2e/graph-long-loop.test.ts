/**
 * A 300-visit loop of an agent graph (maxIterations raised) on a dev server of its own whose
 * continue-as-new suggestion comes after a few dozen history events: the agent rolls over many
 * times carrying its walk — visit counts, the edges fired — so the loop goes on where it stood and
 * ends at visit 300. History stays flat per visit: every run's history is bounded by the
 * suggestion plus what one visit adds, however many visits came before; the carry (the next run's
 * input, compressed) stops growing once the path and the board reach their bounds.
 */
import { temporal } from '@temporalio/proto';
import type { GraphInput } from '../../workflows/model/graph/graph-schema';
import { MAX_PATH_KEPT } from '../../workflows/agent/graph/graph-bounds';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { rolloverServer, SUGGEST_AFTER_EVENTS } from '../harness/rollover-server';
import { startAgent, stateOf } from '../harness/agents';
import { finishVisit } from '../harness/graphs';
import { testConfig, withWorker } from '../harness/test-env';

const VISITS = 300;
/** What one visit (child started and completed, its workflow tasks) and the roll-over add past the suggestion. */
const SLACK_EVENTS = 40;

const bed = agentTestbed();
const server = rolloverServer('graph-loop');

const loop: GraphInput = {
  name: 'counter',
  nodes: [
    {
      id: 'tick',
      systemPrompt: 'Count one more.',
      output: { type: 'object', properties: { done: { type: 'boolean' } }, required: ['done'] },
    },
  ],
  edges: [{ from: 'tick', to: 'tick', when: { equals: { path: 'done', value: false } } }],
  entry: ['tick'],
  end: ['tick'],
  maxIterations: VISITS,
};

test(`a ${VISITS}-visit loop continues as new with flat history per visit and ends on its last visit`, async () => {
  const config = testConfig(bed.llm, { TEMPORAL_ADDRESS: server.address });
  const routes = Object.fromEntries(
    Array.from({ length: VISITS }, (_, i) => {
      const stepId = i === 0 ? 'tick' : `tick-${i + 1}`;
      return [`step:${stepId}`, [finishVisit(`tick ${i + 1}`, { done: i + 1 === VISITS })]];
    }),
  );
  bed.llm.respondWith(byRoute(routes));
  await withWorker(config, async () => {
    const handle = await startAgent(server.client, config, { task: 'count', graph: loop });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: `tick ${VISITS}` });
    const state = await stateOf(server.client.workflow.getHandle(handle.workflowId));
    // Every visit ran once, in order; the path keeps its newest entries and counts the rest.
    const heard = bed.llm.requests.map((r) => r.headers['x-cairn-step']);
    expect(heard).toHaveLength(VISITS);
    expect(new Set(heard).size).toBe(VISITS);
    expect(state.path).toHaveLength(MAX_PATH_KEPT);
    expect(state.pathDropped).toBe(VISITS - MAX_PATH_KEPT);
    expect(state.path?.at(-1)).toMatchObject({ node: 'tick', visit: VISITS, stepId: `tick-${VISITS}` });

    const runs: { at: number; events: number; inputBytes: number }[] = [];
    for await (const run of server.client.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` })) {
      const events = (await server.client.workflow.getHandle(handle.workflowId, run.runId).fetchHistory()).events ?? [];
      const started = events[0]?.workflowExecutionStartedEventAttributes;
      const inputBytes = started?.input ? temporal.api.common.v1.Payloads.encode(started.input).finish().length : 0;
      runs.push({ at: run.startTime.getTime(), events: events.length, inputBytes });
    }
    runs.sort((a, b) => a.at - b.at);
    process.stdout.write(
      `graph loop: ${VISITS} visits in ${runs.length} runs; events per run max ${Math.max(...runs.map((r) => r.events))}; ` +
        `carry bytes first ${runs[1]?.inputBytes}, middle ${runs[Math.floor(runs.length / 2)]?.inputBytes}, last ${runs.at(-1)?.inputBytes}\n`,
    );
    // Many roll-overs, each run's history bounded whatever the visit count.
    expect(runs.length).toBeGreaterThan(VISITS / 20);
    for (const run of runs) expect(run.events).toBeLessThanOrEqual(SUGGEST_AFTER_EVENTS + SLACK_EVENTS);
    // The carry stops growing once the path and the board are at their bounds (second half of the loop).
    const middle = runs[Math.floor(runs.length * 0.75)]?.inputBytes ?? 0;
    expect(runs.at(-1)?.inputBytes ?? 0).toBeLessThan(middle * 1.25);
  });
}, 600_000);
