/**
 * Acceptance 2 and 3 — plan validation with correction messages, and the human plan check
 * (confirm, revise, edit, cancel), answered by update or by signal; a rejected answer changes nothing.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { reply, type ScriptedReply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, rejection, startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { answerSignal, pauseSignal, stateQuery } from '../../workflows/contract/messages';
import { AgentAwaitingInputKey, AgentPhaseKey } from '../../workflows/contract/search-attributes';

const bed = agentTestbed();

const lastUserMessage = (purposeIndex: number): string => {
  const messages = bed.llm.requestsFor('plan')[purposeIndex]?.body.messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
};

const good = plan([step('s1')]);

/** True when a visibility query matches at least one workflow. */
async function listed(query: string): Promise<boolean> {
  for await (const _ of bed.client.workflow.list({ query })) return true;
  return false;
}
const okRoutes = { 'step:s1': [finish('one')], summary: [reply.text('done')] };

describe('plan validation', () => {
  test.each<[string, ScriptedReply, RegExp]>([
    ['malformed JSON', reply.malformedJson(), /not valid JSON/],
    ['schema errors', reply.schemaBreakingJson(), /steps: /],
    ['a cycle', planReply(plan([step('s1', ['s2']), step('s2', ['s1'])])), /cycle: s1 → s2 → s1|cycle: s2 → s1 → s2/],
    ['an unknown dependency', planReply(plan([step('s1', ['ghost'])])), /step "s1": depends on unknown step "ghost"/],
    ['a duplicate id', planReply(plan([step('s1'), step('s1')])), /step "s1": duplicate id/],
  ])('%s gets a correction naming the problem, then a valid plan runs', async (_name, bad, named) => {
    bed.llm.respondWith(byRoute({ plan: [bad, planReply(good)], ...okRoutes }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'validate me' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      expect(lastUserMessage(1)).toMatch(/That plan cannot be used/);
      expect(lastUserMessage(1)).toMatch(named);
      expect((await stateOf(handle)).revision).toBe(1);
    });
  });

  test('three bad plans in a row fail the agent with the errors (when none of them can be repaired, see model-quirks)', async () => {
    bed.llm.respondWith(
      byRoute({ plan: [reply.schemaBreakingJson(), reply.malformedJson(), reply.schemaBreakingJson()] }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'hopeless' });
      const error = await handle.result().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      const cause = (error as WorkflowFailedError).cause;
      expect(cause?.message).toMatch(/3 invalid plans in a row: .*steps: expected array, received string/);
      const state = await stateOf(handle);
      expect(state.phase).toBe('failed');
      expect(state.error).toMatch(/steps: expected array/);
      expect(bed.llm.requestsFor('plan')).toHaveLength(3);
    });
  });
});

describe('plan check', () => {
  test('confirm executes with no further planner call', async () => {
    bed.llm.respondWith(byRoute({ plan: [planReply(good)], ...okRoutes }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'check me', mode: { confirmPlan: true } });
      const check = await waitForInteraction(handle, 'plan.check');
      expect(check).toMatchObject({ plan: good, revision: 1 });
      expect((await stateOf(handle)).phase).toBe('awaiting_input');
      // The Temporal UI's filter `AgentAwaitingInput = true` finds it while it waits.
      const waiting = `WorkflowId = '${handle.workflowId}' AND AgentAwaitingInput = true AND AgentPhase = 'awaiting_input'`;
      await waitUntil('visibility lists the agent as waiting', () => listed(waiting));
      await answer(handle, check.id, { decision: 'confirm' });
      await handle.result();
      expect(bed.llm.requestsFor('plan')).toHaveLength(1);
      const attributes = (await handle.describe()).typedSearchAttributes;
      expect(attributes.get(AgentPhaseKey)).toBe('completed');
      expect(attributes.get(AgentAwaitingInputKey)).toBe(false);
      const events = (await stateOf(handle)).events;
      const cursor = events[events.length - 3]?.seq ?? 0;
      expect((await handle.query(stateQuery, { afterSeq: cursor })).events.map((e) => e.seq)).toEqual(
        events.slice(-2).map((e) => e.seq),
      );
      await recordHistory('agent-plan-check', handle);
    });
  });

  test('revise sends the feedback to the planner and bumps the revision', async () => {
    const revised = plan([step('s1'), step('s2', ['s1'])]);
    bed.llm.respondWith(
      byRoute({ plan: [planReply(good), planReply(revised)], ...okRoutes, 'step:s2': [finish('two')] }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'check me', mode: { confirmPlan: true } });
      const first = await waitForInteraction(handle, 'plan.check');
      const refused = await expectNothingChanged(
        () => stateOf(handle),
        bed.llm,
        first.id,
        () => rejection(handle, first.id, { decision: 'revise' }),
      );
      expect(refused).toMatch(/feedback/);
      await answer(handle, first.id, { decision: 'revise', feedback: 'Add a review step' });
      const second = await waitForInteraction(handle, 'plan.check');
      expect(second).toMatchObject({ revision: 2, plan: revised });
      expect(lastUserMessage(1)).toContain('Add a review step');
      await answer(handle, second.id, { decision: 'confirm' });
      await handle.result();
      expect((await stateOf(handle)).steps.map((s) => s.status)).toEqual(['completed', 'completed']);
    });
  });

  test('edit replaces the plan after validation; an invalid edit is rejected by the update', async () => {
    const edited = plan([step('e1'), step('e2', ['e1'])]);
    bed.llm.respondWith(
      byRoute({
        plan: [planReply(good)],
        'step:e1': [finish('E1')],
        'step:e2': [finish('E2')],
        summary: [reply.text('done')],
      }),
    );
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'check me', mode: { confirmPlan: true } });
      const check = await waitForInteraction(handle, 'plan.check');
      const refused = await expectNothingChanged(
        () => stateOf(handle),
        bed.llm,
        check.id,
        () => rejection(handle, check.id, { decision: 'edit', plan: plan([step('e1', ['nowhere'])]) }),
      );
      expect(refused).toMatch(/depends on unknown step "nowhere"/);
      await answer(handle, check.id, { decision: 'edit', plan: edited });
      await handle.result();
      const state = await stateOf(handle);
      expect(state.revision).toBe(2);
      expect(state.plan).toEqual(edited);
      expect(state.steps.map((s) => [s.id, s.result])).toEqual([
        ['e1', 'E1'],
        ['e2', 'E2'],
      ]);
      expect(bed.llm.requestsFor('plan')).toHaveLength(1);
    });
  });

  test('by signal (the Temporal UI): a wrong-kind or rule-breaking answer is a rejected event and changes nothing; a valid one proceeds', async () => {
    bed.llm.respondWith(byRoute({ plan: [planReply(good)], ...okRoutes }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'check me', mode: { confirmPlan: true } });
      const check = await waitForInteraction(handle, 'plan.check');
      const before = await stateOf(handle);
      const send = (value: unknown) =>
        handle.signal(answerSignal, { interactionId: check.id, answer: value, by: 'temporal-ui' });
      await send({ text: 'looks fine' }); // an ask.query answer to a plan check
      await send({ decision: 'revise' }); // a revision without the feedback it needs
      const after = await waitForState(
        handle,
        'both signalled answers rejected',
        (s) => s.eventSeq >= before.eventSeq + 2,
      );
      const [wrongKind, brokenRule] = after.events.slice(-2);
      expect([wrongKind?.type, brokenRule?.type]).toEqual(['answer.rejected', 'answer.rejected']);
      expect(wrongKind?.message).toMatch(new RegExp(`^answer to ${check.id} rejected: decision: `));
      expect(brokenRule?.message).toMatch(new RegExp(`^answer to ${check.id} rejected: .*feedback`));
      // The timeline gained the two rejections; nothing else moved.
      expect({ ...after, events: after.events.slice(0, -2), eventSeq: after.eventSeq - 2 }).toEqual(before);
      expect(bed.llm.requests).toHaveLength(1);

      await send({ decision: 'confirm' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      const state = await stateOf(handle);
      expect(state.interactions.map((i) => [i.id, i.status, i.by, i.answer])).toEqual([
        [check.id, 'answered', 'temporal-ui', { decision: 'confirm' }],
      ]);
      expect(state.revision).toBe(1);
      expect(bed.llm.requestsFor('plan')).toHaveLength(1);
    });
  });

  test('cancel ends the agent', async () => {
    bed.llm.respondWith(byRoute({ plan: [planReply(good)] }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'check me', mode: { confirmPlan: true } });
      const check = await waitForInteraction(handle, 'plan.check');
      await answer(handle, check.id, { decision: 'cancel' });
      expect(await handle.result()).toMatchObject({ status: 'cancelled' });
      const state = await stateOf(handle);
      expect(state.phase).toBe('cancelled');
      expect(bed.llm.requestsFor('step')).toHaveLength(0);
    });
  });

  test('a cancel at the plan check ends the agent like any other ending: hold dropped, one finished event', async () => {
    bed.llm.respondWith(byRoute({ plan: [planReply(good)] }));
    await withWorker(bed.config, async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'check me', mode: { confirmPlan: true } });
      const check = await waitForInteraction(handle, 'plan.check');
      // Paused while the plan check waits; the answer still goes through (the desk is never held).
      await handle.signal(pauseSignal, { by: 'ops' });
      await waitForState(handle, 'the agent is paused', (s) => s.hold !== undefined);
      await answer(handle, check.id, { decision: 'cancel' });
      expect(await handle.result()).toMatchObject({ status: 'cancelled' });
      const state = await stateOf(handle);
      expect(state.phase).toBe('cancelled');
      expect(state.hold).toBeUndefined(); // the plan-check cancel once kept it
      expect(state.events.filter((e) => e.type === 'agent.finished').map((e) => e.message)).toEqual([
        'cancelled at plan check',
      ]);
    });
  });
});
