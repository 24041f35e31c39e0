/**
 * The `cairn` CLI (the real bin script) on a graph agent run by a worker in this process with
 * the scripted LLM: `show` and `watch` print the path the example review loop took — each visit
 * with its step id, the edge it left by and why — as the agent's own state records it (that a
 * planned agent prints no path: test/unit/render-graph.test.ts).
 */
import { formatGraphPath } from '../../client/graphs/cli/render-graph';
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { agentTestbed } from '../harness/agent-testbed';
import { runCairn } from '../harness/cairn-cli';
import { startAgent, stateOf } from '../harness/agents';
import { finishVisit } from '../harness/graphs';
import { withWorker } from '../harness/test-env';
import { byRoute } from '../fake-llm/routes';

const bed = agentTestbed();

jest.setTimeout(120_000);

const verdict = (approved: boolean) => ({ approved, feedback: approved ? 'good' : 'shorter, please' });

test('show and watch print a graph agent path with its visit step ids', async () => {
  bed.llm.respondWith(
    byRoute({
      'step:draft': [finishVisit('draft text')],
      'step:review': [finishVisit('needs work', verdict(false))],
      'step:revise': [finishVisit('revised text')],
      'step:review-2': [finishVisit('approved text', verdict(true))],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'write a haiku', graph: reviewLoopGraph });
    await handle.result();
    const state = await stateOf(handle);
    const path = formatGraphPath(state);
    expect(state.path?.map((entry) => entry.stepId)).toEqual(['draft', 'review', 'revise', 'review-2']);
    const env = { CAIRN_TASK_QUEUE: bed.config.taskQueue };

    const show = await runCairn(['show', handle.workflowId], env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`${path}\n`);
    // The lines themselves, as a person reads them.
    expect(show.stdout).toContain('path (graph review-loop):\n  [draft] draft · visit 1 → review');
    expect(show.stdout).toContain('  [review] review · visit 1 → revise (output.approved equals false)');
    expect(show.stdout).toMatch(/^ {2}\[review-2\] review · visit 2$/m);
    expect(show.stdout).toMatch(/^ {2}completed +\[review-2\] Review — approved text$/m);
    expect(show.stdout.split('\n')[0]).toBe(`${handle.workflowId}  completed  graph review-loop`);

    const watch = await runCairn(['watch', handle.workflowId, '--no-live'], env);
    expect(watch.code).toBe(0);
    expect(watch.stdout.trimEnd().endsWith(path ?? 'no path')).toBe(true);
  });
});
