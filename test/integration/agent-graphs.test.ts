/**
 * Agent graphs with the scripted model, asserted from its request log and `state.path`: the
 * review loop ends at approval on its second review and stops at `maxIterations` when the
 * reviewer never approves; the router takes each branch; a bad router reply is corrected, and
 * three fail the agent with ROUTE_INVALID; a node's structured output is checked against its
 * schema; fan-out runs branches in parallel and `join: all` meets them once; a message steered
 * in before any node runs reaches the first node's first call, and one steered in while a failed
 * node waits for its decision reaches the retried visit.
 */
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { routerGraph } from '../../examples/graphs/router';
import type { GraphInput } from '../../workflows/model/graph/graph-schema';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { steerSignal } from '../../workflows/contract/thread-contract';
import { approvedAtFirstReview, finishVisit, purposesHeard, routeTo, stepsHeard } from '../harness/graphs';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { recordHistory } from '../harness/histories';
import { stepWorkflowId } from '../../workflows/base/ids';
import { WorkflowFailedError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';

const bed = agentTestbed();

const verdict = (approved: boolean) => ({ approved, feedback: approved ? 'good' : 'shorter, please' });

test('the review loop ends at approval on the second review, with the path and steps it took', async () => {
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
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'completed', answer: 'approved text' });
    const state = await stateOf(handle);
    expect(state.path).toEqual([
      { node: 'draft', visit: 1, stepId: 'draft', edge: { to: 'review', reason: 'plain edge' } },
      { node: 'review', visit: 1, stepId: 'review', edge: { to: 'revise', reason: 'output.approved equals false' } },
      { node: 'revise', visit: 1, stepId: 'revise', edge: { to: 'review', reason: 'plain edge' } },
      { node: 'review', visit: 2, stepId: 'review-2' },
    ]);
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([
      ['draft', 'completed'],
      ['review', 'completed'],
      ['revise', 'completed'],
      ['review-2', 'completed'],
    ]);
    expect(state.graph?.name).toBe('review-loop');
    // The Temporal UI names node and visit.
    const second = await bed.client.workflow.getHandle(stepWorkflowId(handle.workflowId, 'review-2')).describe();
    expect(await second.staticSummary()).toBe('review · visit 2');
    await recordHistory('agent-graph-review-loop', handle);
    await recordHistory(
      'step-graph-output',
      bed.client.workflow.getHandle(stepWorkflowId(handle.workflowId, 'review-2')),
    );
    // No planner, no summary, no router: only the four visits called the model.
    expect(stepsHeard(bed.llm.requests)).toEqual(['draft', 'review', 'revise', 'review-2']);
    expect(new Set(purposesHeard(bed.llm.requests))).toEqual(new Set(['step']));
    // Each node speaks with its own system prompt; the second review sees the revision.
    const first = (step: string) => bed.llm.requests.find((r) => r.headers['x-cairn-step'] === step);
    expect(JSON.stringify(first('review')?.body.messages)).toContain('Review the latest draft');
    expect(JSON.stringify(first('review-2')?.body.messages)).toContain('revised text');
    // The review node's finish_step asks for its output schema.
    const tools = JSON.stringify(first('review')?.body.tools);
    expect(tools).toContain('"approved"');
    expect(JSON.stringify(first('draft')?.body.tools)).not.toContain('"approved"');
  });
});

test('a reviewer that never approves: the fourth review would exceed maxIterations, the agent stops', async () => {
  const no = () => finishVisit('no', verdict(false));
  bed.llm.respondWith(
    byRoute({
      'step:draft': [finishVisit('draft')],
      'step:review': [no()],
      'step:review-2': [no()],
      'step:review-3': [no()],
      'step:revise': [finishVisit('r1')],
      'step:revise-2': [finishVisit('r2')],
      'step:revise-3': [finishVisit('r3')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'never good', graph: reviewLoopGraph });
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'stopped', stopReason: 'max_iterations' });
    const state = await stateOf(handle);
    expect(state.phase).toBe('stopped');
    expect(state.stopReason).toBe('max_iterations');
    expect(state.path?.map((p) => p.stepId)).toEqual([
      'draft',
      'review',
      'revise',
      'review-2',
      'revise-2',
      'review-3',
      'revise-3',
    ]);
    expect(stepsHeard(bed.llm.requests)).not.toContain('review-4');
    await recordHistory('agent-graph-max-iterations', handle);
  });
});

test.each([
  ['bug', 'triage'],
  ['feature', 'spec'],
  ['other', 'answer'],
])('the router sends a %s message to %s', async (kind, branch) => {
  const to = kind === 'bug' ? 'triage' : kind === 'feature' ? 'spec' : null;
  bed.llm.respondWith(
    byRoute({
      'step:classify': [finishVisit(`a ${kind} message`)],
      route: [routeTo(to, `it is a ${kind} message`)],
      [`step:${branch}`]: [finishVisit(`${branch} done`)],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: `a ${kind}`, graph: routerGraph });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: `${branch} done` });
    const state = await stateOf(handle);
    expect(state.path?.map((p) => p.stepId)).toEqual(['classify', branch]);
    expect(state.path?.[0]?.edge).toEqual({ to: branch, reason: `it is a ${kind} message` });
    const route = bed.llm.requests.find((r) => r.headers['x-cairn-purpose'] === 'route');
    expect(route?.headers['x-cairn-step']).toBe('classify');
    // The router hears the candidates in order, and only the llm edges.
    const asked = (route?.body.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    expect(asked.indexOf('"triage"')).toBeLessThan(asked.indexOf('"spec"'));
    expect(asked).not.toContain('"answer"');
    await recordHistory(`agent-graph-route-${kind}`, handle);
  });
});

test('a bad router reply is corrected; three in a row fail the agent with ROUTE_INVALID', async () => {
  bed.llm.respondWith(
    byRoute({
      'step:classify': [finishVisit('a bug'), finishVisit('a bug')],
      route: [reply.text('triage!'), routeTo('triage')],
      'step:triage': [finishVisit('triaged')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'a bug', graph: routerGraph });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'triaged' });
    const routes = bed.llm.requests.filter((r) => r.headers['x-cairn-purpose'] === 'route');
    expect(routes).toHaveLength(2);
    expect(JSON.stringify(routes[1]?.body.messages)).toContain('could not be used');
  });
  bed.llm.respondWith(
    byRoute({
      'step:classify': [finishVisit('a bug')],
      route: [reply.text('no json'), routeTo('nowhere'), reply.json({ to: 'triage' })],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'a bug', graph: routerGraph });
    const failure = await handle.result().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(((failure as WorkflowFailedError).cause as ApplicationFailure).type).toBe('ROUTE_INVALID');
    const state = await stateOf(handle);
    expect(state.failure?.code).toBe('ROUTE_INVALID');
    const routes = bed.llm.requests.filter(
      (r) => r.headers['x-cairn-purpose'] === 'route' && r.headers['x-cairn-agent'] === handle.workflowId,
    );
    expect(routes).toHaveLength(3);
    await recordHistory('agent-graph-route-invalid', handle);
  });
});

test('structured output is checked against the node schema: a bad output is sent back, then equals routes on it', async () => {
  bed.llm.respondWith(
    byRoute({
      'step:draft': [finishVisit('draft')],
      'step:review': [finishVisit('looks fine', { approved: 'yes' }), finishVisit('looks fine', verdict(true))],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'check output', graph: reviewLoopGraph });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'looks fine' });
    const reviews = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 'review');
    expect(reviews).toHaveLength(2);
    // The second call carries the tool error naming the bad field.
    const told = JSON.stringify(reviews[1]?.body.messages);
    expect(told).toContain('output.approved');
    expect((await stateOf(handle)).path?.map((p) => p.stepId)).toEqual(['draft', 'review']);
  });
});

const fanOut = (join: 'all' | 'any'): GraphInput => ({
  name: `fan-${join}`,
  nodes: [
    { id: 'split', systemPrompt: 'Split the work.' },
    { id: 'left', systemPrompt: 'Do the left half.' },
    { id: 'right', systemPrompt: 'Do the right half.' },
    { id: 'merge', systemPrompt: 'Merge the halves.', join },
  ],
  edges: [
    { from: 'split', to: 'left' },
    { from: 'split', to: 'right' },
    { from: 'left', to: 'merge' },
    { from: 'right', to: 'merge' },
  ],
  entry: ['split'],
  end: ['merge'],
});

test('fan-out runs both branches at once; join all merges them once, with both results', async () => {
  bed.llm.respondWith(
    byRoute({
      'step:split': [finishVisit('halves')],
      // Each branch answers only once the other has called: they run at the same time.
      'step:left': [reply.heldUntil(finishVisit('L'), { step: 'right' })],
      'step:right': [reply.heldUntil(finishVisit('R'), { step: 'left' })],
      'step:merge': [finishVisit('L+R')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'fan', graph: fanOut('all') });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'L+R' });
    expect(bed.llm.holdFailures).toEqual([]);
    const merges = stepsHeard(bed.llm.requests).filter((id) => id.startsWith('merge'));
    expect(merges).toEqual(['merge']);
    await recordHistory('agent-graph-join-all', handle);
    const prompt = JSON.stringify(bed.llm.requests.find((r) => r.headers['x-cairn-step'] === 'merge')?.body.messages);
    expect(prompt).toContain('L');
    expect(prompt).toContain('R');
  });
});

test('join any runs the merge for the first branch, and again for the second', async () => {
  bed.llm.respondWith(
    byRoute({
      'step:split': [finishVisit('halves')],
      'step:left': [finishVisit('L')],
      // The right branch answers only once the first merge has called: it fires later.
      'step:right': [reply.heldUntil(finishVisit('R'), { step: 'merge' })],
      'step:merge': [finishVisit('merged L')],
      'step:merge-2': [finishVisit('merged R')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'fan', graph: fanOut('any') });
    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(bed.llm.holdFailures).toEqual([]);
    expect(stepsHeard(bed.llm.requests).filter((id) => id.startsWith('merge'))).toEqual(['merge', 'merge-2']);
    // The first end reached is the answer.
    expect(result).toMatchObject({ answer: 'merged L' });
  });
});

test('a branch that ends with no end node reached fails the agent with GRAPH_NO_END', async () => {
  const graph: GraphInput = {
    name: 'dead-end',
    nodes: [
      { id: 'fetch', systemPrompt: 'Fetch the data.' },
      { id: 'report', systemPrompt: 'Report on it.' },
    ],
    edges: [{ from: 'fetch', to: 'report' }],
    entry: ['fetch'],
    end: ['report'],
  };
  // fetch uses its only round on a tool it does not have; the `continue` policy skips it.
  bed.llm.respondWith(byRoute({ 'step:fetch': [reply.toolCall('no_such_tool', {})] }));
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'nothing to report',
      graph,
      onStepFailure: 'continue',
      limits: { maxStepRounds: 1 },
    });
    const failure = await handle.result().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(((failure as WorkflowFailedError).cause as ApplicationFailure).type).toBe('GRAPH_NO_END');
    const state = await stateOf(handle);
    expect(state.failure?.code).toBe('GRAPH_NO_END');
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([['fetch', 'failed']]);
    expect(stepsHeard(bed.llm.requests)).toEqual(['fetch']);
  });
});

/** The review loop started with a plan check, and steered ("about the sea", by ann) while it waits there. */
async function steeredAtPlanCheck() {
  const handle = await startAgent(bed.client, bed.config, {
    task: 'a haiku',
    graph: reviewLoopGraph,
    mode: { confirmPlan: true },
  });
  const check = await waitForInteraction(handle, 'plan.check');
  await handle.signal(steerSignal, { text: 'about the sea', by: 'ann' });
  return { handle, check };
}

test("a message steered in while a graph agent waits for its plan check reaches the first node's first call", async () => {
  bed.llm.respondWith(approvedAtFirstReview());
  await withWorker(bed.config, async () => {
    const { handle, check } = await steeredAtPlanCheck();
    await answer(handle, check.id, { decision: 'confirm' });
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const [draft] = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 'draft');
    const heard = draft?.body.messages.at(-1);
    expect(heard?.role).toBe('user');
    expect(heard?.content).toContain('about the sea');
    const [review] = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 'review');
    expect(JSON.stringify(review?.body.messages)).not.toContain('about the sea'); // held for the next start only
    expect((await stateOf(handle)).events.filter((e) => e.type === 'message.steered').map((e) => e.message)).toEqual([
      'ann with no step running (held for the next steps): about the sea',
      'the held message to draft',
    ]);
  });
});

test('a held message no step will hear is dropped, saying so, when the agent ends', async () => {
  await withWorker(bed.config, async () => {
    const { handle, check } = await steeredAtPlanCheck();
    await answer(handle, check.id, { decision: 'cancel' });
    await handle.result().catch(() => undefined);
    const state = await stateOf(handle);
    expect(state.phase).toBe('cancelled');
    expect(state.heldSteers).toBeUndefined();
    expect(state.events.filter((e) => e.type === 'message.steered').map((e) => e.message)).toEqual([
      'ann with no step running (held for the next steps): about the sea',
      'the held message not delivered: no step started after them',
    ]);
    expect(bed.llm.requests).toHaveLength(0);
  });
});

test("a message steered in while a failed node waits for its decision reaches the retried visit's first call", async () => {
  bed.llm.respondWith(
    byRoute({
      'step:draft': [reply.error(400), finishVisit('draft')],
      'step:review': [finishVisit('fine', verdict(true))],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'a haiku',
      graph: reviewLoopGraph,
      onStepFailure: 'ask',
    });
    const failure = await waitForInteraction(handle, 'step.failure', 'draft');
    await handle.signal(steerSignal, { text: 'about the sea', by: 'ann' });
    await waitUntil('the message held', async () => ((await stateOf(handle)).heldSteers?.length ? true : undefined));
    await answer(handle, failure.id, { decision: 'retry' });
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const [, retried] = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 'draft');
    expect(retried?.body.messages.at(-1)?.content).toContain('about the sea');
    expect((await stateOf(handle)).events.filter((e) => e.type === 'message.steered').map((e) => e.message)).toEqual([
      'ann with no step running (held for the next steps; draft waits for a failure decision): about the sea',
      'the held message to draft',
    ]);
  });
});
