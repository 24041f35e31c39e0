/**
 * Planning rules nobody else pins down: `ask_user` is withheld from the planner when ask mode
 * is off (and a call to it anyway opens nothing); nested agents never wait for a plan check —
 * neither one started by `sub_agent` under a parent that had one, nor one started directly with
 * `nested: true` and `confirmPlan`; and `maxReplans` caps the replans a `replan` list asks for.
 */
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { RecordedRequest } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { uniqueId, withWorker } from '../harness/test-env';

const bed = agentTestbed();

const toolNames = (purpose: string, index: number) =>
  (bed.llm.requestsFor(purpose)[index]?.body.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : ''));

/** The content of the tool message answering `callId` in a request (its messages). */
function toolMessage(request: RecordedRequest | undefined, callId: string): string {
  const message = request?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : '';
}

test('ask mode off: the planner is not offered ask_user, and calling it anyway opens no question', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.toolCall('ask_user', { kind: 'query', prompt: 'Who reads this?' }, 'sneaky'),
        planReply(plan([step('s1')])),
      ],
      'step:s1': [finish('done')],
      summary: [reply.text('final')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'plan without asking' });
    const settled = await waitForState(
      handle,
      'completed, or a question opened',
      (s) => s.phase === 'completed' || s.interactions.length > 0,
    );
    expect(settled.interactions).toEqual([]);
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'final' });
    expect(toolNames('plan', 0)).not.toContain('ask_user');
    expect(toolNames('plan', 1)).not.toContain('ask_user');
    // The planner is held to the plan's JSON Schema.
    expect(bed.llm.requestsFor('plan')[0]?.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'plan', strict: true },
    });
    expect(toolMessage(bed.llm.requestsFor('plan')[1], 'sneaky')).toMatch(/^error: no more questions are allowed/);
    const state = await stateOf(handle);
    expect(state.interactions).toEqual([]);
    expect(state.asks).toBe(0);
  });
});

test('a sub_agent under a parent with confirmPlan runs its own plan without a plan check', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('n1')]))],
      'step:s1': [reply.toolCall('sub_agent', { task: 'Research the detail' }, 'sa1'), finish('used the finding')],
      'step:n1': [finish('nested finding')],
      summary: [reply.text('nested answer'), reply.text('parent answer')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'delegate', mode: { confirmPlan: true } });
    const check = await waitForInteraction(handle, 'plan.check');
    await answer(handle, check.id, { decision: 'confirm' });
    const nestedHandle = bed.client.workflow.getHandle<typeof agentWorkflow>(`${handle.workflowId}/step-s1/sub-sa1`);
    const settled = await waitForState(nestedHandle, 'the nested agent completed or waits', (s) =>
      ['completed', 'awaiting_input'].includes(s.phase),
    );
    expect(settled.phase).toBe('completed');
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'parent answer' });
    const nested = await stateOf(nestedHandle);
    expect(nested.interactions).toEqual([]);
    expect(nested.events.map((e) => e.type)).not.toContain('interaction.opened');
    expect((await stateOf(handle)).interactions.map((i) => i.kind)).toEqual(['plan.check']);
    const s1Requests = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1');
    expect(toolMessage(s1Requests[1], 'sa1')).toBe('nested answer');
  });
});

test('an agent started as nested never waits for a plan check, even with confirmPlan on', async () => {
  bed.llm.respondWith(
    byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('ran')], summary: [reply.text('done')] }),
  );
  await withWorker(bed.config, async () => {
    const handle = await bed.client.workflow.start(agentWorkflow, {
      taskQueue: bed.config.taskQueue,
      workflowId: uniqueId('agent-nested'),
      args: [{ task: 'nested with a check asked for', nested: true, mode: { confirmPlan: true } }],
    });
    const state = await waitForState(handle, 'the nested agent completed', (s) =>
      ['completed', 'awaiting_input'].includes(s.phase),
    );
    expect(state.phase).toBe('completed');
    expect(state.interactions).toEqual([]);
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
  });
});

test('maxReplans caps replanning: a step in the replan list after the cap runs on without one', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')], { replan: ['s1'] }))],
      // The revised plan asks for a replan after r1 too; the cap of 1 is already used up.
      replan: [planReply(plan([step('r1', ['s1']), step('r2', ['r1'])], { replan: ['r1'] }))],
      'step:s1': [finish('first')],
      'step:r1': [finish('second')],
      'step:r2': [finish('third')],
      summary: [reply.text('answer')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'adapt once', limits: { maxReplans: 1 } });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'answer' });
    expect(bed.llm.requestsFor('replan')).toHaveLength(1);
    const state = await stateOf(handle);
    expect(state.replans).toBe(1);
    expect(state.revision).toBe(2);
    expect(state.events.filter((e) => e.type === 'replan')).toHaveLength(1);
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([
      ['s1', 'completed'],
      ['r1', 'completed'],
      ['r2', 'completed'],
    ]);
  });
});
