/**
 * Plan-and-act as the source designs run it, asserted from the scripted model's request log:
 * `replanAfter: each` revises the remaining steps after every completed step and ends early when
 * the planner returns none; `finish_step.goal_check` is recorded on the step; a step whose
 * rounds ran out delivers its best answer from one last call without tools; and under
 * `confirmPlan` a replanned remainder goes back to the plan check, saying what changed.
 */
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';
import { DELIVER_NOTE } from '../../workflows/step/deliver';
import { stepWorkflowId } from '../../workflows/base/ids';

const bed = agentTestbed();
const purposes = () => bed.llm.requests.map((r) => r.headers['x-cairn-step'] ?? r.headers['x-cairn-purpose']);

test('replanAfter each: a replan after every completed step, ending early when the planner returns no steps', async () => {
  const chain = plan([step('s1'), step('s2', ['s1']), step('s3', ['s2'])]);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(chain)],
      replan: [
        planReply(plan([step('s2', ['s1'], { title: 'Second, sharper' }), step('s3', ['s2'])])),
        planReply(plan([])),
      ],
      'step:s1': [finish('one')],
      'step:s2': [finish('two')],
      summary: [reply.text('done early')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'chain', mode: { replanAfter: 'each' } });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done early' });
    expect(purposes()).toEqual(['plan', 's1', 'replan', 's2', 'replan', 'summary']);
    const state = await stateOf(handle);
    expect(state.steps.map((s) => [s.id, s.title, s.status])).toEqual([
      ['s1', 'Step s1', 'completed'],
      ['s2', 'Second, sharper', 'completed'],
    ]);
    expect(state.revision).toBe(3);
    const updates = state.events.filter((e) => e.type === 'plan.updated').map((e) => e.message);
    expect(updates).toEqual(['plan r2: changed s2', 'plan r3: removed s3']);
  });
});

test('the default replans only after listed steps: the same chain runs without a replan', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2', ['s1'])]))],
      'step:s1': [finish('one')],
      'step:s2': [finish('two')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'chain' });
    await handle.result();
    expect(purposes()).toEqual(['plan', 's1', 's2', 'summary']);
  });
});

test("finish_step's goal_check is recorded on the step", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1', [], { done_when: 'the file exists' })]))],
      'step:s1': [reply.toolCall('finish_step', { result: 'wrote it', goal_check: 'notes.md is there, 3 lines' })],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'goal' });
    await handle.result();
    expect((await stateOf(handle)).steps[0]).toMatchObject({
      result: 'wrote it',
      goalCheck: 'notes.md is there, 3 lines',
    });
    const told = JSON.stringify(bed.llm.requests.find((r) => r.headers['x-cairn-step'] === 's1')?.body.messages);
    expect(told).toContain('Done when: the file exists');
  });
});

test('onRoundsExhausted deliver: one last call without tools, and the step completes delivered', async () => {
  const idle = () => reply.toolCall('no_such_tool', {});
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [idle(), idle(), reply.text('the best I have')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'deliver',
      limits: { maxStepRounds: 2, onRoundsExhausted: 'deliver' },
    });
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const calls = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1');
    expect(calls).toHaveLength(3);
    expect(calls[1]?.body.tools).toBeDefined();
    expect(calls[2]?.body.tools).toBeUndefined();
    expect(calls[2]?.headers['x-cairn-purpose']).toBe('step');
    expect(JSON.stringify(calls[2]?.body.messages)).toContain(DELIVER_NOTE);
    expect((await stateOf(handle)).steps[0]).toMatchObject({
      status: 'completed',
      result: 'the best I have',
      delivered: true,
      rounds: 3,
    });
  });
  // Without it, the same step fails STEP_ROUNDS_EXHAUSTED after its two rounds.
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [idle(), idle()] }));
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'fail', limits: { maxStepRounds: 2 } });
    await handle.result().catch(() => undefined);
    expect((await stateOf(handle)).failure).toMatchObject({ code: 'STEP_FAILED', cause: 'STEP_ROUNDS_EXHAUSTED' });
  });
});

test('under confirmPlan a replanned remainder goes back to the plan check, saying what changed', async () => {
  const first = plan([step('s1'), step('s2', ['s1'])], { replan: ['s1'] });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(first)],
      replan: [planReply(plan([step('s3', ['s1'])]))],
      'step:s1': [finish('one')],
      'step:s3': [finish('three')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'recheck', mode: { confirmPlan: true } });
    const check = await waitForInteraction(handle, 'plan.check');
    expect(check.changes).toBeUndefined();
    await answer(handle, check.id, { decision: 'confirm' });
    const recheck = await waitForInteraction(handle, 'plan.check');
    expect(recheck.id).not.toBe(check.id);
    expect(recheck.changes).toEqual({ added: ['s3'], removed: ['s2'], changed: [] });
    expect(recheck.prompt).toContain('added s3; removed s2');
    expect(recheck.plan?.steps.map((s) => s.id)).toEqual(['s1', 's3']);
    // Nothing of the remainder runs before the person confirms it.
    expect(purposes()).toEqual(['plan', 's1', 'replan']);
    await answer(handle, recheck.id, { decision: 'confirm' });
    await handle.result();
    expect(purposes()).toEqual(['plan', 's1', 'replan', 's3', 'summary']);
    await recordHistory('agent-replan-recheck', handle);
  });
});

test('verifySteps: the checker sends a step back once with its feedback; the second result is verified', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1', [], { done_when: 'it names three sources' })]))],
      'step:s1': [finish('two sources'), finish('three sources')],
      verify: [
        reply.json({ ok: false, feedback: 'only two sources; find a third' }),
        reply.json({ ok: true, feedback: 'three sources named' }),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'verify', mode: { verifySteps: true } });
    await handle.result();
    const calls = bed.llm.requests.map(
      (r) => `${r.headers['x-cairn-purpose']}${r.headers['x-cairn-step'] ? `:${r.headers['x-cairn-step']}` : ''}`,
    );
    expect(calls).toEqual(['plan', 'step:s1', 'verify:s1', 'step:s1', 'verify:s1', 'summary']);
    // The checker reads the step's done-when and result; the model hears the feedback.
    const [firstCheck] = bed.llm.requestsFor('verify');
    expect(JSON.stringify(firstCheck?.body.messages)).toContain('Done when: it names three sources');
    expect(JSON.stringify(firstCheck?.body.messages)).toContain('two sources');
    const again = bed.llm.requests.filter((r) => r.headers['x-cairn-purpose'] === 'step')[1];
    expect(JSON.stringify(again?.body.messages)).toContain('only two sources; find a third');
    expect((await stateOf(handle)).steps[0]).toMatchObject({ result: 'three sources', verified: true, sentBack: 1 });
  });
});

test('verifySteps: a result sent back twice stands, marked unverified', async () => {
  const no = () => reply.json({ ok: false, feedback: 'not yet' });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('a'), finish('b'), finish('c')],
      verify: [no(), no(), no()],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'never good', mode: { verifySteps: true } });
    await handle.result();
    expect(bed.llm.requestsFor('verify')).toHaveLength(3);
    expect((await stateOf(handle)).steps[0]).toMatchObject({
      status: 'completed',
      result: 'c',
      verified: false,
      sentBack: 2,
    });
    await recordHistory('agent-verify-steps', handle);
    await recordHistory(
      'step-verify-unverified',
      bed.client.workflow.getHandle(stepWorkflowId(handle.workflowId, 's1')),
    );
  });
});

test('assess: a simple task runs as one step without a planner; a complex one plans with reasoning turned up', async () => {
  bed.llm.respondWith(
    byRoute({
      assess: [reply.json({ complexity: 'simple' })],
      'step:task': [finish('42')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'what is 6 times 7', mode: { assess: true } });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: '42' });
    expect(bed.llm.requests.map((r) => r.headers['x-cairn-purpose'])).toEqual(['assess', 'step']);
    const state = await stateOf(handle);
    expect(state.assessment).toEqual({ complexity: 'simple' });
    expect(state.events.find((e) => e.type === 'task.assessed')?.message).toBe('simple: one step, no plan');
    await recordHistory('agent-assess-simple', handle);
  });
  bed.llm.respondWith(
    byRoute({
      assess: [reply.json({ complexity: 'complex' })],
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('done')],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'design a database', mode: { assess: true } });
    await handle.result();
    const [assess, planned, stepCall] = bed.llm.requests.filter(
      (r) => r.headers['x-cairn-agent'] === handle.workflowId,
    );
    expect([assess, planned, stepCall].map((r) => r?.headers['x-cairn-purpose'])).toEqual(['assess', 'plan', 'step']);
    expect(planned?.body.reasoning_effort).toBe('high');
    expect(stepCall?.body.reasoning_effort).toBeUndefined();
    expect(assess?.body.reasoning_effort).toBeUndefined();
  });
});
