/**
 * Continue-as-new, invisible to clients (docs/architecture/continue-as-new.md). On a dev server of its own whose
 * continue-as-new suggestion comes after a few dozen history events (dynamic config), an agent
 * with a 200-round step rolls over many times: the step between rounds, the agent while its
 * plan check waits and between steps. The plan check opened before a boundary is answered
 * after it, `watch` sees every timeline event once with no gap, and the agent completes.
 * Messages steered in while the plan check waits are carried across the roll-over they cause.
 */
import { AgentClient } from '../../client/agents/agent-client';
import type { AgentEvent } from '../../workflows/model/agent/agent-state';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { rolloverServer, SUGGEST_AFTER_EVENTS } from '../harness/rollover-server';
import { answer, waitForInteraction, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { lookupTool } from '../../testkit/lookup-tool';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { steerSignal } from '../../workflows/contract/thread-contract';

/** Plan revisions the test allows before the agent must have rolled over at a plan check. */
const MAX_REVISIONS = 6;
const ROUNDS = 200;

const bed = agentTestbed();
const server = rolloverServer('can');

/** Every run of a workflow id, oldest first, with its history length. */
async function runsOf(workflowId: string): Promise<{ runId: string; events: number; status: string }[]> {
  const runs = [];
  for await (const run of server.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await server.client.workflow.getHandle(workflowId, run.runId).fetchHistory();
    runs.push({
      runId: run.runId,
      started: run.startTime.getTime(),
      events: history.events?.length ?? 0,
      status: run.status.name,
    });
  }
  return runs.sort((a, b) => a.started - b.started).map(({ started: _, ...run }) => run);
}

test(`an agent with a ${ROUNDS}-round step continues as new many times, answers and watch cross the boundaries`, async () => {
  const lookup = lookupTool();
  const config = testConfig(bed.llm, { TEMPORAL_ADDRESS: server.address });
  const rounds = Array.from({ length: ROUNDS - 1 }, (_, i) => reply.toolCall('lookup', { key: `k${i}` }));
  bed.llm.respondWith(
    byRoute({
      plan: Array.from({ length: MAX_REVISIONS + 1 }, () =>
        planReply(plan([step('s1'), step('s2', ['s1']), step('s3', ['s2'])])),
      ),
      'step:s1': [...rounds, finish('s1 done')],
      'step:s2': [finish('s2 done')],
      'step:s3': [finish('s3 done')],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(config, async () => {
    // Started as every client starts agents (memo, search attributes), to see them carried over.
    const agents = new AgentClient(server.client, config.taskQueue);
    const id = await agents.start({
      task: 'a long loop',
      mode: { confirmPlan: true },
      limits: { maxStepRounds: ROUNDS },
    });
    const handle: AgentHandle = server.client.workflow.getHandle(id);
    const seen: AgentEvent[] = [];
    const watching = (async () => {
      for await (const event of agents.watch(handle.workflowId, { intervalMs: 100 })) seen.push(event);
    })();
    watching.catch(() => undefined); // a failure is reported by the await below

    // Each revision adds history; once it passes the threshold the agent rolls over while the
    // newest plan check waits — opened in one run, answered in the next.
    let check = await waitForInteraction(handle, 'plan.check');
    for (let revisions = 0; (await runsOf(handle.workflowId)).length < 2; revisions++) {
      if (revisions === MAX_REVISIONS) throw new Error(`no roll-over after ${MAX_REVISIONS} revisions`);
      await answer(handle, check.id, { decision: 'revise', feedback: `again ${revisions}` });
      const previous = check.id;
      check = await waitUntil('the next plan check', async () => {
        const open = await waitForInteraction(handle, 'plan.check');
        return open.id !== previous ? open : undefined;
      });
    }
    expect((await agents.state(handle.workflowId)).interactions.find((i) => i.id === check.id)?.status).toBe('open');
    await answer(handle, check.id, { decision: 'confirm' });

    const result = await handle.result();
    await watching;
    expect(result).toMatchObject({ status: 'completed', answer: 'all done' });

    const agentRuns = await runsOf(handle.workflowId);
    const stepRuns = await runsOf(`${handle.workflowId}/step-s1`);
    process.stdout.write(
      `continue-as-new: agent ${agentRuns.length} runs, step s1 ${stepRuns.length} runs ` +
        `(longest run ${Math.max(...stepRuns.map((r) => r.events))} events)\n`,
    );
    expect(agentRuns.length).toBeGreaterThanOrEqual(3); // at the plan check and between steps
    expect(stepRuns.length).toBeGreaterThanOrEqual(5);
    expect(stepRuns.filter((r) => r.status === 'CONTINUED_AS_NEW')).toHaveLength(stepRuns.length - 1);
    // Runs stay near the threshold: one round past it at most, never the whole loop.
    expect(Math.max(...stepRuns.map((r) => r.events))).toBeLessThan(SUGGEST_AFTER_EVENTS + 40);
    // Every round ran exactly once across the runs: 199 lookups, then finish_step.
    expect(lookup.calls.map((c) => c.key)).toEqual(rounds.map((_, i) => `k${i}`));
    expect(bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1')).toHaveLength(ROUNDS);

    const state = await agents.state(handle.workflowId);
    expect(state.steps.map((s) => [s.id, s.status, s.rounds])).toEqual([
      ['s1', 'completed', ROUNDS],
      ['s2', 'completed', 1],
      ['s3', 'completed', 1],
    ]);
    expect(state.steps[0]?.toolCallCount).toBe(ROUNDS - 1);
    // The step's transcript crossed every run in its carry: each round once, in order, the newest
    // its finish — far more rounds than any one run of ~60 events holds.
    const transcript = await agents.transcript(handle.workflowId, 's1');
    const kept = transcript.rounds.map((r) => r.round);
    expect((transcript.droppedRounds ?? 0) + kept.length).toBe(ROUNDS);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => ROUNDS - kept.length + 1 + i));
    expect(kept.length).toBeGreaterThan(ROUNDS / 2);
    expect(transcript.rounds.at(-1)?.toolCalls.map(({ callId, ...call }) => [typeof callId, call])).toEqual([
      ['string', { name: 'finish_step', arguments: '{"result":"s1 done"}', outcome: 'ok', result: 'ok' }],
    ]);
    expect(transcript.rounds[0]?.toolCalls[0]).toMatchObject({ name: 'lookup', outcome: 'ok' });
    // The agent lists once (not once per run), with its task and final phase carried over.
    const listed = (await agents.list({ limit: 1000 })).filter((a) => a.id === handle.workflowId);
    expect(listed).toEqual([expect.objectContaining({ task: 'a long loop', phase: 'completed', status: 'COMPLETED' })]);
    // Replay guards the resume paths: the run that rolled over at the plan check, the run that
    // resumed there, and a step run that started from a carry and rolled over again.
    await recordHistory(
      'agent-rollover-plan-check',
      server.client.workflow.getHandle(handle.workflowId, agentRuns[0]?.runId),
    );
    await recordHistory(
      'agent-rollover-execute',
      server.client.workflow.getHandle(handle.workflowId, agentRuns[1]?.runId),
    );
    await recordHistory(
      'step-rollover',
      server.client.workflow.getHandle(`${handle.workflowId}/step-s1`, stepRuns[1]?.runId),
    );
    expect(state.interactions.at(-1)).toMatchObject({ id: check.id, status: 'answered', by: 'tester' });
    expect(state.interactions.every((i) => i.kind === 'plan.check' && i.status === 'answered')).toBe(true);
    // watch: every event once, in order, no gap — across every boundary.
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: state.eventSeq }, (_, i) => i + 1));
  }, [lookup.tool]);
}, 240_000);

test('messages steered in while the plan check waits are held across the roll-over they cause: the newest 10 reach the step', async () => {
  const config = testConfig(bed.llm, { TEMPORAL_ADDRESS: server.address });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('s1 done')],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(config, async () => {
    const agents = new AgentClient(server.client, config.taskQueue);
    const id = await agents.start({ task: 'steered while waiting', mode: { confirmPlan: true } });
    const handle: AgentHandle = server.client.workflow.getHandle(id);
    const check = await waitForInteraction(handle, 'plan.check');
    // Each signal adds history: enough of them pass the threshold, and the agent rolls over
    // while its plan check waits, carrying what it holds.
    const sent: string[] = [];
    for (let i = 0; (await runsOf(id)).length < 2; i++) {
      if (i === SUGGEST_AFTER_EVENTS) throw new Error(`no roll-over after ${i} steers`);
      sent.push(`note ${i}`);
      await handle.signal(steerSignal, { text: `note ${i}`, by: 'ann' });
    }
    const carried = await waitUntil('the next run holds the messages', async () => {
      const state = await agents.state(id);
      return state.heldSteers?.length ? state.heldSteers : undefined;
    });
    expect(sent.length).toBeGreaterThan(10); // more than are held
    expect(carried.map((m) => m.text)).toEqual(sent.slice(-10));
    await answer(handle, check.id, { decision: 'confirm' });
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const [first] = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1');
    const heard = (first?.body.messages ?? [])
      .filter((m) => m.role === 'user')
      .map((m) => (typeof m.content === 'string' ? m.content : ''));
    expect(sent.filter((text) => heard.some((h) => h.endsWith(`\n${text}`)))).toEqual(sent.slice(-10));
    const state = await agents.state(id);
    expect(state.heldSteers).toBeUndefined();
    expect(state.events.filter((e) => e.type === 'message.steered').at(-1)?.message).toBe('10 held messages to s1');
  });
}, 120_000);
