/**
 * `limits.deadlineMs`: a durable timer from the agent's start. At the deadline running steps
 * are cancelled, finished ones keep their results, and the agent ends `stopped` with reason
 * `deadline` and a mechanical summary — no further model call. With `onDeadline: ask` a person
 * decides instead: `extend` gives the agent more time.
 */
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { recordHistory } from '../harness/histories';

const bed = agentTestbed();
/**
 * Far from what must happen before it — a plan and a step or two from the fake model, well under
 * a second on an idle machine — so a loaded one cannot make the deadline strike first.
 */
const DEADLINE_MS = 8_000;

test('at the deadline running steps are cancelled and the agent ends stopped with reason deadline', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a'), step('b')]))],
      'step:a': [finish('result-a')],
      'step:b': [reply.hang()], // still running at the deadline
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'in time', limits: { deadlineMs: DEADLINE_MS } });
    const result = await handle.result();
    expect(result.status).toBe('stopped');
    const state = await stateOf(handle);
    expect(state.phase).toBe('stopped');
    expect(state.stopReason).toBe('deadline');
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([
      ['a', 'completed'],
      ['b', 'cancelled'],
    ]);
    expect(result.answer).toContain('result-a');
    expect(bed.llm.requestsFor('summary')).toHaveLength(0);
    // Not before the deadline, by a durable timer of the whole deadline started with the agent.
    const { startTime } = await handle.describe();
    expect(state.deadlineAt).toBe(startTime.getTime() + DEADLINE_MS);
    const ended = state.events.find((e) => e.type === 'agent.finished');
    expect(ended?.message).toBe('stopped: deadline');
    expect(ended?.at).toBeGreaterThanOrEqual(startTime.getTime() + DEADLINE_MS);
    const history = await handle.fetchHistory();
    const timers = (history.events ?? []).filter((e) => e.timerStartedEventAttributes);
    const seconds = timers.map((e) => Number(e.timerStartedEventAttributes?.startToFireTimeout?.seconds ?? 0));
    const whole = DEADLINE_MS / 1000;
    expect(seconds.some((s) => s >= whole - 1 && s <= whole)).toBe(true);
    // And because of it (causally, not by the clock): that timer, started in the agent's first
    // workflow task, fired, and cancelling step b was what the agent did in the very next task.
    const events = history.events ?? [];
    const idOf = (e: (typeof events)[number] | undefined) => Number(e?.eventId ?? -1);
    const timer = timers[0]?.timerStartedEventAttributes;
    expect(Number(timer?.workflowTaskCompletedEventId)).toBe(
      idOf(events.find((e) => e.workflowTaskCompletedEventAttributes)),
    );
    const fired = events.find((e) => e.timerFiredEventAttributes?.timerId === timer?.timerId);
    expect(fired).toBeDefined();
    const nextTask = events.find((e) => e.workflowTaskCompletedEventAttributes && idOf(e) > idOf(fired));
    const cancels = events.flatMap((e) => e.requestCancelExternalWorkflowExecutionInitiatedEventAttributes ?? []);
    expect(cancels.map((c) => Number(c.workflowTaskCompletedEventId))).toEqual([idOf(nextTask)]);
  });
});

test('onDeadline ask: the deadline opens an interaction, extend moves it and the agent completes', async () => {
  let openGate = () => undefined as void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a')]))],
      'step:a': [reply.after(finish('result-a'), gate)], // still running at the deadline
      summary: [reply.text('done in time')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'ask me',
      limits: { deadlineMs: DEADLINE_MS },
      onDeadline: 'ask',
    });
    const asked = await waitForInteraction(handle, 'deadline');
    const { startTime } = await handle.describe();
    expect(asked.deadlineAt).toBe(startTime.getTime() + DEADLINE_MS);
    expect(asked.createdAt).toBeGreaterThanOrEqual(startTime.getTime() + DEADLINE_MS);
    await answer(handle, asked.id, { decision: 'extend', deadlineMs: 600_000 });
    const extended = await stateOf(handle);
    expect(extended.deadlineAt).toBeGreaterThanOrEqual(asked.createdAt + 600_000);
    expect(extended.phase).toBe('executing');
    openGate();
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done in time' });
    await recordHistory('agent-deadline-ask', handle);
  });
});

test('onDeadline ask: stop ends the agent stopped with reason deadline and no further model call', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a'), step('b')]))],
      'step:a': [finish('result-a')],
      'step:b': [reply.hang()], // still running at the deadline, and while the question waits
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, {
      task: 'ask, then stop',
      limits: { deadlineMs: DEADLINE_MS },
      onDeadline: 'ask',
    });
    const asked = await waitForInteraction(handle, 'deadline');
    // Asking does not stop anything: the agent runs on until someone decides.
    const waiting = await stateOf(handle);
    expect(waiting.phase).toBe('executing');
    expect(waiting.steps.find((s) => s.id === 'b')?.status).toBe('running');
    await answer(handle, asked.id, { decision: 'stop' }, 'dana');
    const result = await handle.result();
    expect(result.status).toBe('stopped');
    expect(result.answer).toContain('result-a');
    const state = await stateOf(handle);
    expect(state).toMatchObject({ phase: 'stopped', stopReason: 'deadline' });
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([
      ['a', 'completed'],
      ['b', 'cancelled'],
    ]);
    expect(state.interactions.find((i) => i.id === asked.id)).toMatchObject({
      status: 'answered',
      answer: { decision: 'stop' },
      by: 'dana',
    });
    expect(state.events.find((e) => e.type === 'agent.finished')?.message).toBe('stopped: deadline');
    expect(bed.llm.requests).toHaveLength(3); // plan, a, b: no summary after the stop
  });
});
