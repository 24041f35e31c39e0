/**
 * A person's edited plan with a key the plan does not have (`"dependsOn": ["nowhere"]` for
 * `depends_on`) is refused by name — by the update (what the web page, the HTTP API and the CLI
 * send: INVALID_ANSWER, the key's own field, nothing changed) and by signal (what the Temporal UI
 * sends: an `answer.rejected` event naming the key, nothing else changed). Before, the key was
 * dropped and the plan ran as if the edit had said nothing. A model's plan with extra keys is still
 * taken. The signal's refusal sits behind a replay gate (PATCHES.strictPlanEdit): the run that took
 * it is replayed here against this build, as the patch registry asks of a gate no kept history holds.
 */
import { Worker } from '@temporalio/worker';
import { AgentClient } from '../../client/agents/agent-client';
import { ClientError } from '../../client/client-error';
import { cairnDataConverter } from '../../temporal/payloads/data-converter';
import { answerSignal } from '../../workflows/contract/messages';
import { PATCHES } from '../../workflows/base/patches';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { runInfo } from '../harness/run-info';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

/** The planner's plan: a then b, b after a. The person's edit means to make b wait for "nowhere". */
const planned = plan([step('a'), step('b', ['a'])]);
const misspelt = { ...planned, steps: [planned.steps[0], { ...step('b'), dependsOn: ['nowhere'] }] };

test('by update: refused with INVALID_ANSWER and the key as the field, nothing changed; a correct edit runs', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(planned)],
      'step:a': [finish('A')],
      'step:b': [finish('B')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'edit me', mode: { confirmPlan: true } });
    const check = await waitForInteraction(handle, 'plan.check');
    const agents = new AgentClient(bed.client, bed.config.taskQueue);
    const refusal = await expectNothingChanged(
      () => stateOf(handle),
      bed.llm,
      check.id,
      () =>
        agents
          .answer(handle.workflowId, { interactionId: check.id, answer: { decision: 'edit', plan: misspelt } })
          .then(
            () => undefined,
            (err: unknown) => err,
          ),
    );
    expect(refusal).toBeInstanceOf(ClientError);
    expect(refusal).toMatchObject({ code: 'INVALID_ANSWER', field: 'answer.plan.steps.1.dependsOn' });
    expect((refusal as ClientError).message).toContain('steps.1.dependsOn: unknown key');

    // The same plan with the key it meant: accepted, and it runs as edited.
    const meant = plan([step('a'), step('b', ['a'], { description: 'Do b, edited' })]);
    await agents.answer(handle.workflowId, { interactionId: check.id, answer: { decision: 'edit', plan: meant } });
    await handle.result();
    expect((await stateOf(handle)).plan).toEqual(meant);
  });
});

test('by signal: an answer.rejected event naming the key, the plan check still open; the run replays on this build', async () => {
  // The model's own plan carries an extra key: still taken (the key dropped), as ever.
  const withExtras = { ...planned, steps: planned.steps.map((s) => ({ ...s, rationale: 'because' })) };
  bed.llm.respondWith(
    byRoute({
      plan: [reply.json(withExtras)],
      'step:a': [finish('A')],
      'step:b': [finish('B')],
      summary: [reply.text('done')],
    }),
  );
  let workflowId = '';
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'edit me', mode: { confirmPlan: true } });
    workflowId = handle.workflowId;
    const check = await waitForInteraction(handle, 'plan.check');
    expect(check.plan).toEqual(planned);
    const before = await stateOf(handle);
    await handle.signal(answerSignal, {
      interactionId: check.id,
      answer: { decision: 'edit', plan: misspelt },
      by: 'temporal-ui',
    });
    const after = await waitForState(handle, 'the signal is rejected', (s) =>
      s.events.some((e) => e.type === 'answer.rejected'),
    );
    const rejected = after.events.filter((e) => e.type === 'answer.rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.message).toContain(`answer to ${check.id} rejected: plan: steps.1.dependsOn: unknown key`);
    expect(after.interactions.find((i) => i.id === check.id)?.status).toBe('open');
    expect({ ...after, events: before.events, eventSeq: before.eventSeq }).toEqual(before);

    await handle.signal(answerSignal, { interactionId: check.id, answer: { decision: 'confirm' }, by: 'temporal-ui' });
    await handle.result();
    expect((await stateOf(handle)).steps.map((s) => [s.id, s.status])).toEqual([
      ['a', 'completed'],
      ['b', 'completed'],
    ]);
  });
  const history = await bed.client.workflow.getHandle(workflowId).fetchHistory();
  // The gate's marker, recorded where the refusal happened (and only there).
  const gates = (history.events ?? []).flatMap((e) => {
    const data = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    return data ? [(JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id] : [];
  });
  expect(gates.filter((id) => id === PATCHES.strictPlanEdit)).toHaveLength(1);
  await Worker.runReplayHistory(
    {
      workflowBundle: { codePath: runInfo().workflowBundlePath },
      replayName: workflowId,
      dataConverter: cairnDataConverter({ compression: true }),
    },
    history,
    workflowId,
  );
});
