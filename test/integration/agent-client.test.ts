/**
 * The client library against the real dev server: readable ids, start validation, state,
 * visibility lists (exactly the waiting agent), answers with coded rejections that change nothing,
 * watch, cancel.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { AgentClient } from '../../client/agents/agent-client';
import { ClientError } from '../../client/client-error';
import { agentWorkflowId } from '../../client/workflow-id';
import type { AgentEvent } from '../../workflows/model/agent/agent-state';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { activitySummaries } from '../harness/activity-attempts';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();
const agents = () => new AgentClient(bed.client, bed.config.taskQueue);

test('workflow ids are readable: agent-<slug>-<short id>', () => {
  expect(agentWorkflowId('Research X & write a brief!', '1234abcd-ffff')).toBe(
    'agent-research-x-write-a-brief-1234abcd',
  );
  expect(agentWorkflowId('??', 'abcdefgh')).toBe('agent-task-abcdefgh');
});

test('start refuses bad input with a coded error naming the field', async () => {
  await expect(agents().start({ task: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'task' });
  await expect(agents().state('agent-nope-00000000')).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

test('list by AgentAwaitingInput returns exactly the waiting agent; answers, watch and results', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('s1')])), planReply(plan([step('s1')]))],
      'step:s1': [finish('one'), finish('two'), finish('three')],
      summary: [reply.text('a'), reply.text('b'), reply.text('c')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = agents();
    const waiting = await client.start({ task: 'Needs a human', mode: { confirmPlan: true } });
    const [done1, done2] = [await client.start({ task: 'No human 1' }), await client.start({ task: 'No human 2' })];
    expect(waiting).toMatch(/^agent-needs-a-human-[0-9a-f]{8}$/);
    await Promise.all([client.result(done1), client.result(done2)]);
    const listed = await waitUntil('visibility shows only the waiting agent as waiting', async () => {
      const found = (await client.list({ awaitingInput: true })).filter((a) => [waiting, done1, done2].includes(a.id));
      return found.length === 1 ? found : undefined;
    });
    expect(listed[0]).toMatchObject({
      id: waiting,
      task: 'Needs a human',
      phase: 'awaiting_input',
      awaitingInput: true,
    });
    const completed = await waitUntil('both completed agents listed', async () => {
      const ids = (await client.list({ phase: 'completed' })).map((a) => a.id);
      return ids.includes(done1) && ids.includes(done2) ? ids : undefined;
    });
    expect(completed).not.toContain(waiting);

    const check = (await client.state(waiting)).interactions[0];
    const bad = await expectNothingChanged(
      () => client.state(waiting),
      bed.llm,
      check?.id ?? '',
      () =>
        client
          .answer(waiting, { interactionId: check?.id ?? '', answer: { decision: 'maybe' } })
          .catch((e: unknown) => e),
    );
    expect(bad).toBeInstanceOf(ClientError);
    expect(bad).toMatchObject({ code: 'INVALID_ANSWER' });
    await client.answer(waiting, { interactionId: check?.id ?? '', answer: { decision: 'confirm' }, by: 'carol' });
    await expect(
      client.answer(waiting, { interactionId: check?.id ?? '', answer: { decision: 'confirm' } }),
    ).rejects.toMatchObject({ code: 'NOT_OPEN' });
    const events: AgentEvent[] = [];
    for await (const event of client.watch(waiting, { intervalMs: 100 })) events.push(event);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.type).toBe('agent.finished');
    expect(await client.result(waiting)).toMatchObject({ status: 'completed' });
    const described = await bed.client.workflow.getHandle(waiting).describe();
    expect(await described.staticSummary()).toBe('Needs a human');
    // Operators read what each activity is for in the Temporal UI.
    const summaries = (id: string) => activitySummaries(bed.client.workflow.getHandle(id));
    expect(await summaries(waiting)).toEqual(['tool catalogue', 'prompt templates', 'plan r1', 'summary']);
    expect(await summaries(`${waiting}/step-s1`)).toEqual(['s1 · round 1']);
    const child = await bed.client.workflow.getHandle(`${waiting}/step-s1`).describe();
    expect(await child.staticSummary()).toBe('s1 · Step s1');
  });
});

test('cancel: a waiting agent ends cancelled with nothing run after it; an unknown agent is NOT_FOUND', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))] }));
  await withWorker(bed.config, async () => {
    const client = agents();
    const id = await client.start({ task: 'Cancel me', mode: { confirmPlan: true } });
    await waitUntil(
      'the agent waits at its plan check',
      async () => (await client.state(id)).phase === 'awaiting_input',
    );
    await client.cancel(id);
    const error = await client.result(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    const state = await client.state(id);
    expect(state.phase).toBe('cancelled');
    expect(state.events.at(-1)).toMatchObject({ type: 'agent.finished', message: 'cancelled' });
    expect(state.steps.map((s) => s.status)).toEqual(['pending']);
    expect(bed.llm.requests.map((r) => r.headers['x-cairn-purpose'])).toEqual(['plan']);
    const listed = await waitUntil('the list shows the agent cancelled', async () =>
      (await client.list({ phase: 'cancelled' })).find((a) => a.id === id),
    );
    expect(listed).toMatchObject({ status: 'CANCELLED' });
    await expect(client.cancel('agent-nope-00000000')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
