/**
 * `limits.deadlineMs` survives worker restarts: it lives in the agent's history as one durable
 * timer, started by the first worker when the agent started, and fired by the server whether or
 * not a worker is running. With no worker at the deadline, the agent stops as soon as a new
 * worker picks it up; with a worker replaced before the deadline, the agent still stops at its
 * deadline — the restart neither re-arms nor moves the timer. The audit dates what the stop closed
 * at the stop. (Across continue-as-new:
 * test/e2e/limits-rollover.test.ts.)
 */
import type { temporal } from '@temporalio/proto';
import { auditOf } from '../../client/agents/audit-entries';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();
/** Room for the first worker to start the agent and reach the approval on a busy machine. */
const DEADLINE_MS = 10_000;
/**
 * Room for that and more: the first worker stopped, a second one created (seconds on a busy
 * machine) and asked about the agent, all before the deadline.
 */
const REPLACED_DEADLINE_MS = 30_000;

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const msOf = (ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  Number(ts?.seconds ?? 0) * 1000 + Math.floor((ts?.nanos ?? 0) / 1e6);

/** Step a finishes; step b waits for the approval of a write, so the agent is mid-run at the deadline. */
function script(): void {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a'), step('b')]))],
      'step:a': [finish('result-a')],
      'step:b': [reply.toolCall('write_file', { path: 'b.txt', content: 'B' }, 'w1')],
    }),
  );
}

/** Starts the agent on a first worker and stops that worker once b waits for its approval. */
async function startOnFirstWorker(deadlineMs: number): Promise<AgentHandle> {
  return withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, {
        task: 'beat the clock',
        limits: { deadlineMs },
      });
      await waitForInteraction(handle, 'tool.approval', 'b');
      return handle;
    },
    undefined,
    { identity: 'first-worker' },
  );
}

/**
 * The agent's deadline timer from its history: exactly one timer, started by the first worker
 * for exactly what was left of the deadline at that workflow task (workflow time is the task's
 * start, as the server stamped it), the moment the server fired it, and the event ids that order
 * what happened.
 */
async function deadlineTimer(
  handle: AgentHandle,
  deadlineAt: number,
): Promise<{ firedAt: number; firedId: number; events: HistoryEvent[] }> {
  const events: HistoryEvent[] = (await handle.fetchHistory()).events ?? [];
  const started = events.filter((e) => e.timerStartedEventAttributes);
  expect(started).toHaveLength(1);
  const timer = started[0]?.timerStartedEventAttributes;
  const byId = (id: unknown) => events.find((e) => Number(e.eventId) === Number(id));
  const completed = byId(timer?.workflowTaskCompletedEventId)?.workflowTaskCompletedEventAttributes;
  expect(completed?.identity).toBe('first-worker');
  // Armed for what was left at that task: its workflow time plus the timeout is the deadline.
  const taskTime = msOf(byId(completed?.startedEventId)?.eventTime);
  expect(Math.abs(taskTime + msOf(timer?.startToFireTimeout) - deadlineAt)).toBeLessThanOrEqual(1);
  const fired = events.find((e) => e.timerFiredEventAttributes?.timerId === timer?.timerId);
  expect(fired).toBeDefined();
  return { firedAt: msOf(fired?.eventTime), firedId: Number(fired?.eventId), events };
}

/** The id of the first workflow task `identity` started. */
function firstTaskOf(events: HistoryEvent[], identity: string): number | undefined {
  const task = events.find((e) => e.workflowTaskStartedEventAttributes?.identity === identity);
  return task === undefined ? undefined : Number(task.eventId);
}

/** What the deadline leaves: stopped for the deadline, a's result kept, b cancelled, no more calls. */
async function expectStoppedByDeadline(
  handle: AgentHandle,
  deadlineMs: number,
): Promise<{ deadlineAt: number; finishedAt: number }> {
  const result = await handle.result();
  expect(result.status).toBe('stopped');
  expect(result.answer).toContain('result-a');
  const state = await stateOf(handle);
  expect(state).toMatchObject({ phase: 'stopped', stopReason: 'deadline' });
  expect(state.steps.map((s) => [s.id, s.status])).toEqual([
    ['a', 'completed'],
    ['b', 'cancelled'],
  ]);
  expect(state.interactions.map((i) => [i.kind, i.status])).toEqual([['tool.approval', 'expired']]);
  expect(bed.llm.requests).toHaveLength(3); // plan, a, b: no summary
  const { startTime } = await handle.describe();
  expect(state.deadlineAt).toBe(startTime.getTime() + deadlineMs);
  const finished = state.events.find((e) => e.type === 'agent.finished');
  expect(finished?.message).toBe('stopped: deadline');
  // The audit (GET /api/agents/:id/audit, cairn audit) dates the approval the stop closed at the
  // stop, not at the moment it was opened.
  const entries = auditOf(state);
  expect(entries.map((e) => [e.what, e.at])).toEqual([
    ['tool.approval expired', finished?.at],
    ['stopped: deadline', finished?.at],
  ]);
  return { deadlineAt: state.deadlineAt ?? 0, finishedAt: finished?.at ?? 0 };
}

test('no worker at the deadline: the server fires the durable timer, and the next worker stops the agent', async () => {
  script();
  const handle = await startOnFirstWorker(DEADLINE_MS);
  const { startTime } = await handle.describe();
  const after = startTime.getTime() + DEADLINE_MS + 1500;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, after - Date.now())));
  expect((await handle.describe()).status.name).toBe('RUNNING');

  const { deadlineAt, finishedAt, firedAt, firedId, events } = await withWorker(
    bed.config,
    async () => {
      const stopped = await expectStoppedByDeadline(handle, DEADLINE_MS);
      return { ...stopped, ...(await deadlineTimer(handle, stopped.deadlineAt)) };
    },
    undefined,
    { identity: 'second-worker' },
  );
  // Fired by the server while no worker ran, no earlier than the deadline: the timer's firing
  // precedes the first task the new worker took, and the agent stopped in that worker.
  expect(firedAt).toBeGreaterThanOrEqual(deadlineAt);
  expect(firedId).toBeLessThan(firstTaskOf(events, 'second-worker') ?? 0);
  expect(finishedAt).toBeGreaterThanOrEqual(after);
});

test('a worker replaced before the deadline: the agent still stops at its deadline, on the first worker’s timer', async () => {
  script();
  const handle = await startOnFirstWorker(REPLACED_DEADLINE_MS);
  const { deadlineAt, finishedAt, firedAt, firedId, events } = await withWorker(
    bed.config,
    async () => {
      // The new worker is in time: it answers a query (it has the agent in memory) while the
      // history shows no fired timer yet.
      const waiting = (await stateOf(handle)).interactions.filter((i) => i.status === 'open').map((i) => i.kind);
      expect(waiting).toEqual(['tool.approval']);
      const before = (await handle.fetchHistory()).events ?? [];
      expect(before.filter((e) => e.timerFiredEventAttributes)).toEqual([]);
      const stopped = await expectStoppedByDeadline(handle, REPLACED_DEADLINE_MS);
      return { ...stopped, ...(await deadlineTimer(handle, stopped.deadlineAt)) };
    },
    undefined,
    { identity: 'second-worker' },
  );
  // Stopped by the first worker's one timer — never re-armed by the new worker, which would have
  // started a second timer for a whole deadline — once the new worker took the task it fired.
  expect(firedAt).toBeGreaterThanOrEqual(deadlineAt);
  const stopTask = events.find(
    (e) => Number(e.eventId) > firedId && e.workflowTaskStartedEventAttributes?.identity === 'second-worker',
  );
  expect(stopTask).toBeDefined();
  expect(finishedAt).toBeGreaterThanOrEqual(msOf(stopTask?.eventTime));
}, 120_000);
