/**
 * The limits across continue-as-new, on a dev server of its own whose suggestion comes after a
 * few dozen history events. An agent with a token budget (raised once it was crossed) and a
 * deadline is paused, and rolls over while paused. The next run keeps all three: it starts
 * nothing until resumed (the hold), the raised budget stays in force (no second budget
 * interaction), and the deadline falls where it fell in the first run — the new run's timer is
 * armed for what was left — so the agent ends `stopped` (deadline) at the original moment.
 * Asserted from the carry in history, the new run's state and history, and the fake's log.
 */
import type { temporal } from '@temporalio/proto';
import type { AgentCarry } from '../../workflows/model/agent/agent-carry';
import { pauseSignal, resumeSignal } from '../../workflows/contract/messages';
import { reply, type ScriptedUsage } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, waitForState, type AgentHandle } from '../harness/agents';
import { plan, step } from '../harness/plans';
import { carryOf } from '../harness/carries';
import { recordHistory } from '../harness/histories';
import { expectNoNewRequests } from '../harness/no-new-requests';
import { rolloverServer, SUGGEST_AFTER_EVENTS } from '../harness/rollover-server';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();
const server = rolloverServer('limits-can');

/** Long enough for the run-up (crossing, raise, pause, roll-over) on a busy machine. */
const DEADLINE_MS = 20_000;
const RAISED = 100_000;

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const usage = (total: number): ScriptedUsage => ({ promptTokens: total / 2, completionTokens: total / 2 });
const finishUsing = (result: string, total: number) =>
  reply.toolCalls([{ name: 'finish_step', arguments: { result } }], { usage: usage(total) });
const msOf = (ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  Number(ts?.seconds ?? 0) * 1000 + Math.floor((ts?.nanos ?? 0) / 1e6);

async function historyOf(handle: AgentHandle, runId?: string): Promise<HistoryEvent[]> {
  return (await server.client.workflow.getHandle(handle.workflowId, runId).fetchHistory()).events ?? [];
}

test('paused, with a raised budget and a deadline, the agent rolls over: the next run keeps the hold, the budget and the deadline', async () => {
  const config = testConfig(bed.llm, { TEMPORAL_ADDRESS: server.address });
  let openGate = () => undefined as void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [
        reply.json(plan([step('s1'), step('s2', ['s1']), step('s3', ['s2']), step('s4', ['s3'])]), {
          usage: usage(10),
        }),
      ],
      // s1's first round crosses the budget of 100; after the raise it finishes.
      'step:s1': [
        reply.toolCalls([{ name: 'no_such_tool', arguments: {} }], { usage: usage(200) }),
        finishUsing('r1', 10),
      ],
      'step:s2': [reply.after(finishUsing('r2', 10), gate)], // in flight when the agent is paused
      'step:s3': [finishUsing('r3', 10)], // runs in the next run, once resumed
      // Still waiting for the approval of a write at the deadline.
      'step:s4': [reply.toolCall('write_file', { path: 's4.txt', content: 'late' }, 'w1')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(server.client, config, {
      task: 'limits across runs',
      limits: { tokenBudget: 100, deadlineMs: DEADLINE_MS },
    });
    const { startTime } = await handle.describe();
    const deadlineAt = startTime.getTime() + DEADLINE_MS;

    const budget = await waitForInteraction(handle, 'budget');
    await answer(handle, budget.id, { decision: 'raise', tokenBudget: RAISED }, 'ana');
    await bed.llm.waitForRequests(4); // plan, s1 ×2, s2 (in flight)
    await handle.signal(pauseSignal, { by: 'ops', reason: 'over the weekend' });
    await waitForState(handle, 'paused', (s) => s.phase === 'paused');

    // Repeated pauses change nothing but add history: past the threshold, the server suggests
    // continue-as-new, and the agent rolls over once s2 settles (nothing else runs: it is held).
    const pausedRun = (await handle.describe()).runId;
    while ((await historyOf(handle, pausedRun)).length <= SUGGEST_AFTER_EVENTS + 10) {
      for (let i = 0; i < 5; i++) await handle.signal(pauseSignal, { by: 'ops' });
    }
    openGate();
    const nextRun = await waitUntil('the roll-over', async () => {
      const { runId } = await handle.describe();
      return runId !== pausedRun ? runId : undefined;
    });

    // The carry in the paused run's history hands over the hold, the raised budget and the deadline.
    const carry = carryOf({ events: await historyOf(handle, pausedRun) }) as AgentCarry;
    expect(carry.resumeAt).toBe('execute');
    expect(carry.state).toMatchObject({
      phase: 'paused',
      hold: { reasons: ['pause'], resumePhase: 'executing', by: 'ops', reason: 'over the weekend' },
      tokenBudget: RAISED,
      deadlineAt,
    });

    // The new run is held: nothing starts, and its state says so.
    await expectNoNewRequests(bed.llm, 4, 1500);
    const held = await stateOf(handle);
    expect(held).toMatchObject({
      phase: 'paused',
      hold: { reasons: ['pause'], by: 'ops' },
      tokenBudget: RAISED,
      deadlineAt,
    });
    expect(held.steps.map((s) => [s.id, s.status])).toEqual([
      ['s1', 'completed'],
      ['s2', 'completed'],
      ['s3', 'pending'],
      ['s4', 'pending'],
    ]);
    // Its history: a continuation, one timer armed for what is left of the deadline, no step started.
    const events = await historyOf(handle, nextRun);
    expect(events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBe(pausedRun);
    const timers = events.filter((e) => e.timerStartedEventAttributes);
    expect(timers).toHaveLength(1);
    // Armed for what was left at its workflow task (workflow time is the task's start): the
    // timer falls on the first run's deadline, to the millisecond — not a fresh deadline.
    const timer = timers[0]?.timerStartedEventAttributes;
    const byId = (id: unknown) => events.find((e) => Number(e.eventId) === Number(id));
    const taskStarted = byId(
      byId(timer?.workflowTaskCompletedEventId)?.workflowTaskCompletedEventAttributes?.startedEventId,
    );
    expect(Math.abs(msOf(taskStarted?.eventTime) + msOf(timer?.startToFireTimeout) - deadlineAt)).toBeLessThanOrEqual(
      1,
    );
    expect(events.some((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toBe(false);

    // Resumed in the new run: s3 runs on the raised budget (no second budget interaction), s4
    // still waits for an approval at the original deadline, which stops the agent.
    await handle.signal(resumeSignal, { by: 'ops' });
    await bed.llm.waitForRequests(6); // s3, s4
    const result = await handle.result();
    expect(result.status).toBe('stopped');
    const state = await stateOf(handle);
    expect(state).toMatchObject({ phase: 'stopped', stopReason: 'deadline', deadlineAt, tokenBudget: RAISED });
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([
      ['s1', 'completed'],
      ['s2', 'completed'],
      ['s3', 'completed'],
      ['s4', 'cancelled'],
    ]);
    expect(state.interactions.map((i) => [i.kind, i.status])).toEqual([
      ['budget', 'answered'],
      ['tool.approval', 'expired'],
    ]);
    expect(bed.llm.requests).toHaveLength(6); // no summary after the stop
    const finished = state.events.find((e) => e.type === 'agent.finished');
    expect(finished?.message).toBe('stopped: deadline');
    // Stopped by that one timer: it fired (no earlier than the deadline), then the agent ended.
    const fired = (await historyOf(handle, nextRun)).find((e) => e.timerFiredEventAttributes);
    expect(msOf(fired?.eventTime)).toBeGreaterThanOrEqual(deadlineAt);
    expect(finished?.at).toBeGreaterThanOrEqual(msOf(fired?.eventTime));
    await recordHistory('agent-rollover-held', server.client.workflow.getHandle(handle.workflowId, nextRun));
  });
});
