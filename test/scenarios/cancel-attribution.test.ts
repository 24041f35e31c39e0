/**
 * Who a cancellation names (docs/contracts.md#messages), through the workflow on the run's dev
 * server: a `recordCancel` sent while no worker runs is not lost — the cancellation goes through
 * and, once a worker comes, names who asked; an ended agent refuses the cancellation with
 * `AGENT_FINISHED`; a record older than 5 minutes when a later cancellation arrives does not
 * name that person, a younger one does.
 *
 * A dev server cannot skip time, and a record's time is the workflow time its update was taken
 * at. The one way a run holds a record older than itself is the carry: an agent that continued
 * as new after a `recordCancel` whose cancellation never came hands the record over in its
 * state. So the aged records here are carried in by starting a run with a carry — the real
 * state of a waiting agent, its record's time set 6 (or 4) minutes back — and cancelled
 * straight through Temporal, as the UI or CLI would; the workflow decides by its own clock.
 */
import type { Client } from '@temporalio/client';
import { AgentClient } from '../../client/agents/agent-client';
import type { CairnConfig } from '../../config/config';
import { CARRY_VERSION, type AgentCarry } from '../../workflows/model/agent/agent-carry';
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { uniqueId, withWorker } from '../harness/test-env';

const bed = agentTestbed();
const OLGA = { id: 'olga', name: 'Olga Ops', roles: ['operator' as const], method: 'api' as const };
const INPUT: AgentInput = { task: 'Wait at the plan check', mode: { confirmPlan: true } };
const MINUTE = 60_000;

/** The last timeline event of an ended agent: how it ended, and who it names. */
const finished = (state: AgentState) => state.events.filter((e) => e.type === 'agent.finished').at(-1);

test('a cancel recorded while no worker runs goes through, and names who asked once a worker comes', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))] }));
  // A short query timeout, so the record is given up on quickly.
  const agents = new AgentClient(bed.client, bed.config.taskQueue, true, 1500);
  const handle = await withWorker(bed.config, async () => {
    const started = await startAgent(bed.client, bed.config, INPUT);
    await waitForInteraction(started, 'plan.check');
    return started;
  });
  // No worker: nobody takes the record within the timeout; the cancellation is requested anyway.
  await agents.cancel(handle.workflowId, { actor: OLGA, reason: 'no longer needed' });
  expect((await handle.describe()).status.name).toBe('RUNNING');
  await withWorker(bed.config, async () => {
    await expect(handle.result()).rejects.toThrow();
    const state = await stateOf(handle);
    expect(state.phase).toBe('cancelled');
    expect(finished(state)).toMatchObject({ message: 'cancelled by olga: no longer needed', actor: OLGA });
  });
});

test('a cancellation of an ended agent is refused with AGENT_FINISHED, with a record or without', async () => {
  bed.llm.respondWith(() => finish('done'));
  const agents = new AgentClient(bed.client, bed.config.taskQueue);
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'Finish at once', mode: { plan: false } });
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    for (const request of [{}, { actor: OLGA }]) {
      await expect(agents.cancel(handle.workflowId, request)).rejects.toMatchObject({ code: 'AGENT_FINISHED' });
    }
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    await expect(agents.cancel('agent-nope-00000000', { actor: OLGA })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

/** The carry of a waiting agent whose state holds a cancel record of `ageMs` ago (see the header). */
async function carryWithRecord(config: CairnConfig, ageMs: number): Promise<AgentCarry> {
  const waiting = await startAgent(bed.client, config, INPUT);
  await waitForInteraction(waiting, 'plan.check');
  const state = await stateOf(waiting);
  await waiting.terminate('its state was taken for a carry');
  return {
    version: CARRY_VERSION,
    resumeAt: 'plan-check',
    state: { ...state, cancelRequest: { at: Date.now() - ageMs, by: OLGA.id, actor: OLGA } },
    planner: [],
    tools: [],
    stepRoutes: {},
  };
}

/** Starts a run from `carry`, waits at its carried plan check, cancels it through Temporal alone. */
async function cancelCarried(client: Client, config: CairnConfig, carry: AgentCarry): Promise<AgentState> {
  const handle = await client.workflow.start(agentWorkflow, {
    taskQueue: config.taskQueue,
    workflowId: uniqueId('agent-carried'),
    args: [INPUT, carry],
  });
  await waitForInteraction(handle, 'plan.check');
  await handle.cancel();
  await expect(handle.result()).rejects.toThrow();
  return stateOf(handle);
}

test('a cancel record older than 5 minutes does not name a later canceller; a younger one does', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')])), planReply(plan([step('s1')]))] }));
  await withWorker(bed.config, async () => {
    const stale = await cancelCarried(bed.client, bed.config, await carryWithRecord(bed.config, 6 * MINUTE));
    expect(stale.phase).toBe('cancelled');
    expect(stale.cancelRequest?.by).toBe('olga'); // carried, and still there: only not believed
    expect(finished(stale)).toEqual(expect.objectContaining({ message: 'cancelled' }));
    expect(finished(stale)).not.toHaveProperty('actor');

    const fresh = await cancelCarried(bed.client, bed.config, await carryWithRecord(bed.config, 4 * MINUTE));
    expect(fresh.phase).toBe('cancelled');
    expect(finished(fresh)).toMatchObject({ message: 'cancelled by olga', actor: OLGA });
  });
});
