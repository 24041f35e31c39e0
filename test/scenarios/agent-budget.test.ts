/**
 * One token meter per agent tree, against `limits.tokenBudget`. Crossing it holds the whole
 * tree — no new model request reaches the fake after the crossing, except the calls already in
 * flight, which finish and count — and opens a `budget` interaction; `raise` resumes every
 * held step where it stopped, `stop` ends the agent `stopped` with the finished results and a
 * mechanical summary. Calls in flight are made so by the test: their replies wait on a gate
 * the test opens only once it has seen the interaction (the fake's `reply.after`).
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { reply, type ScriptedUsage } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { ScriptedLlm } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { plan, step } from '../harness/plans';
import { expectNoNewRequests } from '../harness/no-new-requests';
import { withWorker } from '../harness/test-env';
import { recordHistory } from '../harness/histories';
import { stepWorkflowId } from '../../workflows/base/ids';
import { gate } from '../harness/gate';

/** Several times what a call takes to reach the fake once a step starts it. */
const QUIET_WINDOW_MS = 1000;
const bed = agentTestbed();

const usage = (total: number): ScriptedUsage => ({ promptTokens: total / 2, completionTokens: total / 2 });
/** A round that calls a tool the step does not have: the step goes on to another round. */
const goOn = (total: number) => reply.toolCalls([{ name: 'no_such_tool', arguments: {} }], { usage: usage(total) });
const finishUsing = (result: string, total: number) =>
  reply.toolCalls([{ name: 'finish_step', arguments: { result } }], { usage: usage(total) });

/** The sum of the usage the fake reported in its answers. */
const reportedTotal = (llm: ScriptedLlm) => llm.requests.reduce((sum, r) => sum + (r.reportedTokens ?? 0), 0);

/**
 * Three parallel steps; a's first round spends 200 tokens of a 100 budget while b's and c's
 * first calls are in flight (a's reply is sent only once both arrived; theirs only once the
 * test saw the budget interaction).
 */
function scriptCrossing(inFlight: ReturnType<typeof gate>, later: Record<string, ReturnType<typeof reply.text>[]>) {
  const bothArrived = bed.llm.waitForRequests(4); // plan, a, b, c
  bed.llm.respondWith(
    byRoute({
      plan: [reply.json(plan([step('a'), step('b'), step('c')]), { usage: usage(10) })],
      'step:a': [reply.after(goOn(200), bothArrived), ...(later['step:a'] ?? [])],
      'step:b': [reply.after(goOn(20), inFlight.opened), ...(later['step:b'] ?? [])],
      'step:c': [reply.after(finishUsing('result-c', 20), inFlight.opened), ...(later['step:c'] ?? [])],
      ...(later.summary ? { summary: later.summary } : {}),
    }),
  );
}

/** Runs the crossing up to the held state: returns the agent and the open budget interaction. */
async function crossBudget(inFlight: ReturnType<typeof gate>) {
  const handle = await startAgent(bed.client, bed.config, { task: 'spend', limits: { tokenBudget: 100 } });
  const budget = await waitForInteraction(handle, 'budget');
  expect(budget).toMatchObject({ usedTokens: 210, tokenBudget: 100 });
  expect(budget.prompt).toContain('Step b');
  expect(bed.llm.requests).toHaveLength(4); // plan, a, b, c — a's next round did not start
  inFlight.open(); // b's and c's calls finish now, after the crossing: they count, nothing new starts
  const held = await waitForState(
    handle,
    'the in-flight calls counted',
    (s) => s.usage.totalTokens === 250 && s.steps.find((x) => x.id === 'c')?.status === 'completed',
  );
  expect(held.phase).toBe('paused');
  expect(held.hold?.reasons).toEqual(['budget']);
  await expectNoNewRequests(bed.llm, 4, QUIET_WINDOW_MS);
  return { handle, budget };
}

test('crossing the budget holds the tree; raise resumes every held step and the agent completes', async () => {
  const inFlight = gate();
  scriptCrossing(inFlight, {
    'step:a': [finishUsing('result-a', 10)],
    'step:b': [finishUsing('result-b', 10)],
    summary: [reply.text('all done', { usage: usage(10) })],
  });
  await withWorker(bed.config, async () => {
    const { handle, budget } = await crossBudget(inFlight);
    await answer(handle, budget.id, { decision: 'raise', tokenBudget: 1000 });
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'completed', answer: 'all done' });
    const state = await stateOf(handle);
    expect(state.phase).toBe('completed');
    expect(state.tokenBudget).toBe(1000);
    expect(state.steps.map((s) => [s.id, s.status, s.result])).toEqual([
      ['a', 'completed', 'result-a'],
      ['b', 'completed', 'result-b'],
      ['c', 'completed', 'result-c'],
    ]);
    expect(state.usage.totalTokens).toBe(reportedTotal(bed.llm));
    expect(state.usage.totalTokens).toBe(280);
    expect(state.interactions.find((i) => i.id === budget.id)).toMatchObject({ status: 'answered', by: 'tester' });
    await recordHistory('agent-budget-raise', handle);
    await recordHistory('step-budget-hold', bed.client.workflow.getHandle(stepWorkflowId(handle.workflowId, 'a')));
  });
});

test('stop ends the agent stopped, with the finished results, a mechanical summary and no further request', async () => {
  const inFlight = gate();
  scriptCrossing(inFlight, {});
  await withWorker(bed.config, async () => {
    const { handle, budget } = await crossBudget(inFlight);
    await answer(handle, budget.id, { decision: 'stop' });
    const result = await handle.result();
    expect(result.status).toBe('stopped');
    const state = await stateOf(handle);
    expect(state.phase).toBe('stopped');
    expect(state.stopReason).toBe('budget');
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([
      ['a', 'cancelled'],
      ['b', 'cancelled'],
      ['c', 'completed'],
    ]);
    expect(result.answer).toContain('result-c');
    expect(state.result).toBe(result.answer);
    expect(bed.llm.requests).toHaveLength(4); // no summary call, nothing after the stop
    expect(state.usage.totalTokens).toBe(reportedTotal(bed.llm));
  });
});

test('a raise must be above what was used, and a refused one changes nothing', async () => {
  const inFlight = gate();
  scriptCrossing(inFlight, {});
  await withWorker(bed.config, async () => {
    const { handle, budget } = await crossBudget(inFlight);
    // 200 is below the tokens used: the validator refuses it as an invalid answer, naming the field.
    const refused = await answer(handle, budget.id, { decision: 'raise', tokenBudget: 200 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    const cause = (refused as WorkflowUpdateFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect((cause as ApplicationFailure).type).toBe('INVALID_ANSWER');
    expect((cause as ApplicationFailure).details?.[0]).toEqual({ code: 'INVALID_ANSWER', field: 'answer.tokenBudget' });
    const state = await stateOf(handle);
    expect(state.phase).toBe('paused');
    expect(state.interactions.find((i) => i.id === budget.id)?.status).toBe('open');
    await answer(handle, budget.id, { decision: 'stop' });
    expect((await handle.result()).status).toBe('stopped');
  });
});
