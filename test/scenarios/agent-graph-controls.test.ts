/**
 * A graph agent under the controls plans have: a node's write waits for approval; a pause in the
 * middle of a loop holds the next visit until resume; a budget crossed inside a loop holds the
 * walk until it is raised; the plan check shows the graph and takes only confirm or cancel; and
 * an input that combines a graph with a planning mode, or breaks a graph rule, is refused with
 * INVALID_INPUT naming the field.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import { AgentClient } from '../../client/agents/agent-client';
import { ClientError } from '../../client/client-error';
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import type { GraphInput } from '../../workflows/model/graph/graph-schema';
import { pauseSignal, resumeSignal } from '../../workflows/contract/messages';
import { reply, type ScriptedUsage } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, waitForState, agentFile } from '../harness/agents';
import { approvedAtFirstReview, finishVisit, stepsHeard } from '../harness/graphs';
import { expectNoNewRequests } from '../harness/no-new-requests';
import { testConfig, withWorker } from '../harness/test-env';
import { recordHistory } from '../harness/histories';
import { gate } from '../harness/gate';

/** Several times what a call takes to reach the fake once a visit starts it. */
const QUIET_WINDOW_MS = 1000;
const bed = agentTestbed();
const verdict = (approved: boolean) => ({ approved, feedback: approved ? 'good' : 'again' });

test('a node whose write needs approval waits for it, then writes', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'graph-write-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const graph: GraphInput = {
    name: 'writer',
    nodes: [
      { id: 'draft', systemPrompt: 'Draft the note.' },
      { id: 'publish', systemPrompt: 'Write the note to note.md.', tools: ['write_file'] },
    ],
    edges: [{ from: 'draft', to: 'publish' }],
    entry: ['draft'],
    end: ['publish'],
  };
  bed.llm.respondWith(
    byRoute({
      'step:draft': [finishVisit('the note')],
      'step:publish': [
        reply.toolCalls([{ name: 'write_file', arguments: { path: 'note.md', content: 'the note' }, id: 'w1' }], {
          content: 'Saving the note as asked.',
        }),
        finishVisit('published'),
      ],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'publish a note', graph });
    const approval = await waitForInteraction(handle, 'tool.approval', 'publish');
    expect(existsSync(agentFile(workspace, handle.workflowId, 'note.md'))).toBe(false);
    // The node's tools are its allow list only.
    const offered = JSON.stringify(bed.llm.requests.find((r) => r.headers['x-cairn-step'] === 'publish')?.body.tools);
    expect(offered).toContain('write_file');
    expect(offered).not.toContain('read_file');
    await answer(handle, approval.id, { decision: 'approve', digest: approval.digest });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'published' });
    expect(readFileSync(agentFile(workspace, handle.workflowId, 'note.md'), 'utf8')).toBe('the note');
    await recordHistory('agent-graph-approval', handle);
  });
});

test('a pause mid-loop holds the next visit; resume goes on where the loop stood', async () => {
  const revising = gate();
  bed.llm.respondWith(
    byRoute({
      'step:draft': [finishVisit('draft')],
      'step:review': [finishVisit('no', verdict(false))],
      'step:revise': [reply.after(finishVisit('revised'), revising.opened)],
      'step:review-2': [finishVisit('yes', verdict(true))],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'loop', graph: reviewLoopGraph });
    await bed.llm.waitForRequests(3); // draft, review, revise (in flight)
    await handle.signal(pauseSignal, { by: 'ops' });
    await waitForState(handle, 'paused', (s) => s.phase === 'paused');
    revising.open(); // the visit in flight finishes and counts; the loop's next visit must wait
    await waitForState(
      handle,
      'revise completed',
      (s) => s.steps.find((x) => x.id === 'revise')?.status === 'completed',
    );
    await expectNoNewRequests(bed.llm, 3, QUIET_WINDOW_MS);
    expect((await stateOf(handle)).phase).toBe('paused');
    await handle.signal(resumeSignal, { by: 'ops' });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'yes' });
    expect(stepsHeard(bed.llm.requests)).toEqual(['draft', 'review', 'revise', 'review-2']);
    await recordHistory('agent-graph-pause', handle);
  });
});

test('a budget crossed inside the loop holds the walk; raised, the loop goes on', async () => {
  const usage = (total: number): ScriptedUsage => ({ promptTokens: total / 2, completionTokens: total / 2 });
  const spend = (total: number, args: unknown) =>
    reply.toolCalls([{ name: 'finish_step', arguments: args }], { usage: usage(total) });
  bed.llm.respondWith(
    byRoute({
      'step:draft': [spend(40, { result: 'draft' })],
      'step:review': [spend(40, { result: 'no', output: verdict(false) })],
      'step:revise': [spend(40, { result: 'revised' })],
      'step:review-2': [finishVisit('yes', verdict(true))],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'loop on a budget',
      graph: reviewLoopGraph,
      limits: { tokenBudget: 100 },
    });
    const budget = await waitForInteraction(handle, 'budget');
    expect(budget.usedTokens).toBe(120);
    // The crossing came with revise; review-2 has not started.
    await expectNoNewRequests(bed.llm, 3, QUIET_WINDOW_MS);
    expect((await stateOf(handle)).path?.map((p) => p.stepId)).toEqual(['draft', 'review', 'revise']);
    await answer(handle, budget.id, { decision: 'raise', tokenBudget: 1000 });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'yes' });
    expect(stepsHeard(bed.llm.requests)).toEqual(['draft', 'review', 'revise', 'review-2']);
  });
});

test('the plan check shows the graph and takes confirm or cancel only', async () => {
  bed.llm.respondWith(approvedAtFirstReview());
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'check first',
      graph: reviewLoopGraph,
      mode: { confirmPlan: true },
    });
    const check = await waitForInteraction(handle, 'plan.check');
    expect(check.graph?.name).toBe('review-loop');
    expect(check.plan).toBeUndefined();
    expect(check.decisions).toEqual(['confirm', 'cancel']);
    expect(bed.llm.requests).toHaveLength(0); // nothing runs before the check
    for (const refused of [
      { decision: 'revise', feedback: 'shorter' },
      { decision: 'edit', plan: {} },
    ]) {
      const error = await answer(handle, check.id, refused).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
      expect(((error as WorkflowUpdateFailedError).cause as ApplicationFailure).type).toBe('INVALID_ANSWER');
    }
    await answer(handle, check.id, { decision: 'confirm' });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'fine' });
    await recordHistory('agent-graph-plan-check', handle);
  });
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'cancel it',
      graph: reviewLoopGraph,
      mode: { confirmPlan: true },
    });
    const check = await waitForInteraction(handle, 'plan.check');
    await answer(handle, check.id, { decision: 'cancel' });
    await handle.result().catch(() => undefined);
    expect((await stateOf(handle)).phase).toBe('cancelled');
  });
});

test('a graph with a planning mode, or breaking a graph rule, is refused with INVALID_INPUT', async () => {
  const client = await AgentClient.connect(bed.config);
  try {
    const refused = async (input: Parameters<AgentClient['start']>[0]) =>
      client.start(input).then(
        () => undefined,
        (err: unknown) => err,
      );
    const withPlan = await refused({ task: 't', graph: reviewLoopGraph, mode: { plan: false } });
    expect(withPlan).toBeInstanceOf(ClientError);
    expect(withPlan).toMatchObject({ code: 'INVALID_INPUT', field: 'mode.plan' });
    const withAsk = await refused({ task: 't', graph: reviewLoopGraph, mode: { ask: true } });
    expect(withAsk).toMatchObject({ code: 'INVALID_INPUT', field: 'mode.ask' });
    const broken = { ...reviewLoopGraph, edges: [...(reviewLoopGraph.edges ?? []), { from: 'review', to: 'nowhere' }] };
    const unknown = await refused({ task: 't', graph: broken });
    expect(unknown).toMatchObject({ code: 'INVALID_INPUT', field: 'graph.edges[3].to' });
    expect((unknown as ClientError).message).toContain('unknown_node');
  } finally {
    await client.close();
  }
  // Started around the client (the Temporal UI, another SDK), the workflow refuses it itself.
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 't',
      graph: reviewLoopGraph,
      mode: { plan: true },
    });
    const failure = await handle.result().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(((failure as WorkflowFailedError).cause as ApplicationFailure).type).toBe('INVALID_INPUT');
  });
});

test("a graph's timeoutMs is its deadline: the running visit is cancelled and the agent ends stopped (deadline)", async () => {
  const never = gate();
  // The entry visit is held until after the deadline, however late a loaded machine makes it
  // fire: the visit running then is known (draft), whatever the deadline's exact moment.
  bed.llm.respondWith(byRoute({ 'step:draft': [reply.after(finishVisit('late'), never.opened)] }));
  await withWorker(bed.config, async () => {
    const graph = { ...reviewLoopGraph, timeoutMs: 2_000 };
    const handle = await startAgent(bed.client, bed.config, { task: 'in time', graph });
    expect(await handle.result()).toMatchObject({ status: 'stopped', stopReason: 'deadline' });
    const state = await stateOf(handle);
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([['draft', 'cancelled']]);
    never.open();
  });
});

test('a graph agent cancelled mid-loop cancels its running visit and keeps the path it took', async () => {
  const revising = gate();
  bed.llm.respondWith(
    byRoute({
      'step:draft': [finishVisit('draft')],
      'step:review': [finishVisit('no', verdict(false))],
      'step:revise': [reply.after(finishVisit('revised'), revising.opened)],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'stop it', graph: reviewLoopGraph });
    await bed.llm.waitForRequests(3); // draft, review, revise (in flight)
    await handle.cancel();
    await handle.result().catch(() => undefined);
    const state = await stateOf(handle);
    expect(state.phase).toBe('cancelled');
    expect(state.path?.map((p) => p.stepId)).toEqual(['draft', 'review', 'revise']);
    expect(state.steps.find((s) => s.id === 'revise')?.status).toBe('cancelled');
    revising.open();
    await expectNoNewRequests(bed.llm, 3, QUIET_WINDOW_MS);
  });
});
