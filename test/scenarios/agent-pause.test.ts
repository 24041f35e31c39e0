/**
 * Pause and resume by the public `pause` / `resume` signals (what the Temporal UI, the CLI and
 * the HTTP API send). While paused no new model or tool call starts anywhere in the tree — a
 * call in flight finishes and counts — open interactions stay answerable, and the pause
 * survives a worker restart; resume goes on exactly where the agent stopped. Operators find a
 * paused agent by its `AgentPhase` search attribute.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../client/agents/agent-client';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, waitForState, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNoNewRequests } from '../harness/no-new-requests';
import { testConfig, withWorker } from '../harness/test-env';
import { pauseSignal, resumeSignal } from '../../workflows/contract/messages';
import { recordHistory } from '../harness/histories';
import { stepWorkflowId } from '../../workflows/base/ids';
import { listedByTemporalCli } from '../harness/temporal-cli';
import { waitUntil } from '../../testkit/wait-until';

/** Several times what a call takes to reach the fake once a step starts it. */
const QUIET_WINDOW_MS = 1000;
const bed = agentTestbed();

test('a paused agent starts no model or tool call, its approval stays answerable, and it resumes after a worker restart', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'pause-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  let openGate = () => undefined as void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a'), step('b')]))],
      // a is mid-ReAct: its first call is in flight when the agent is paused, its second waits.
      'step:a': [reply.after(reply.toolCalls([{ name: 'no_such_tool', arguments: {} }]), gate), finish('result-a')],
      // b waits for the approval of a write when the agent is paused.
      'step:b': [reply.toolCall('write_file', { path: 'b.txt', content: 'B' }, 'w1'), finish('wrote b')],
      summary: [reply.text('done')],
    }),
  );
  const handle = await withWorker(config, async () => {
    const agent = await startAgent(bed.client, config, { task: 'pause me' });
    const approval = await waitForInteraction(agent, 'tool.approval', 'b');
    await bed.llm.waitForRequests(3); // plan, a, b
    await agent.signal(pauseSignal, { by: 'ops', reason: 'looking into it' });
    const paused = await waitForState(agent, 'paused', (s) => s.phase === 'paused');
    expect(paused.hold).toMatchObject({ reasons: ['pause'], resumePhase: 'executing', by: 'ops' });

    openGate(); // a's call in flight finishes and counts; a's next call must wait
    await waitForState(agent, "a's first round counted", (s) => s.steps.find((x) => x.id === 'a')?.rounds === 1);
    // The approval is still answerable while paused, but the approved write does not run yet.
    await answer(agent, approval.id, { decision: 'approve', digest: approval.digest }, 'alice');
    const answered = await stateOf(agent);
    expect(answered.interactions.find((i) => i.id === approval.id)).toMatchObject({ status: 'answered', by: 'alice' });
    expect(answered.phase).toBe('paused');
    await expectNoNewRequests(bed.llm, 3, QUIET_WINDOW_MS);
    expect(existsSync(agentFile(workspace, agent.workflowId, 'b.txt'))).toBe(false);
    return agent;
  });

  // A new worker: the agent is still paused — nothing moves until resume.
  const state = await withWorker(
    config,
    async () => {
      await expectNoNewRequests(bed.llm, 3, QUIET_WINDOW_MS);
      expect((await stateOf(handle)).phase).toBe('paused');
      expect(existsSync(agentFile(workspace, handle.workflowId, 'b.txt'))).toBe(false);
      await handle.signal(resumeSignal, { by: 'ops' });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'completed', answer: 'done' });
      await recordHistory('agent-pause', handle);
      await recordHistory('step-pause', bed.client.workflow.getHandle(stepWorkflowId(handle.workflowId, 'b')));
      return stateOf(handle); // a query needs a worker, even on a closed workflow
    },
    undefined,
    { identity: 'second-worker' },
  );
  expect(readFileSync(agentFile(workspace, handle.workflowId, 'b.txt'), 'utf8')).toBe('B');
  expect(state.steps.map((s) => [s.id, s.status, s.result])).toEqual([
    ['a', 'completed', 'result-a'],
    ['b', 'completed', 'wrote b'],
  ]);
  expect(state.hold).toBeUndefined();
  const timeline = state.events.map((e) => e.type);
  expect(timeline).toContain('agent.paused');
  expect(timeline).toContain('agent.resumed');
  expect(bed.llm.requests).toHaveLength(6); // plan, a ×2, b ×2, summary: nothing repeated
});

test('a bad pause payload is refused on the timeline and changes nothing', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a')]))],
      'step:a': [reply.toolCall('write_file', { path: 'x.txt', content: 'X' }, 'w1')],
    }),
  );
  await withWorker(bed.config, async () => {
    const agent = await startAgent(bed.client, bed.config, { task: 'refuse' });
    await waitForInteraction(agent, 'tool.approval', 'a');
    await agent.signal(pauseSignal, { by: 42 } as never);
    const state = await waitForState(agent, 'the rejection on the timeline', (s) =>
      s.events.some((e) => e.type === 'signal.rejected'),
    );
    expect(state.phase).toBe('executing');
    expect(state.hold).toBeUndefined();
    await agent.cancel();
  });
});

test('while paused the AgentPhase search attribute is paused: the temporal CLI and the client list find it; resume clears it', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a')]))],
      'step:a': [reply.toolCall('write_file', { path: 'x.txt', content: 'X' }, 'w1')],
    }),
  );
  await withWorker(bed.config, async () => {
    const agents = new AgentClient(bed.client, bed.config.taskQueue);
    const agent = await startAgent(bed.client, bed.config, { task: 'visibly paused' });
    const id = agent.workflowId;
    await waitForInteraction(agent, 'tool.approval', 'a');
    const inPhase = (phase: string) => listedByTemporalCli(`WorkflowId = '${id}' AND AgentPhase = '${phase}'`);
    // Visibility is eventually consistent: wait until the operator's query sees each phase.
    const seen = (phase: string) =>
      waitUntil(`AgentPhase = ${phase} in visibility`, async () =>
        (await inPhase(phase)).includes(id) ? true : undefined,
      );
    await seen('executing');

    await agent.signal(pauseSignal, { by: 'ops' });
    await seen('paused');
    expect(await inPhase('executing')).toEqual([]);
    const listed = await agents.list({ phase: 'paused' });
    expect(listed.filter((a) => a.id === id)).toEqual([
      expect.objectContaining({ phase: 'paused', awaitingInput: true, status: 'RUNNING' }),
    ]);

    await agent.signal(resumeSignal, { by: 'ops' });
    await seen('executing');
    expect(await inPhase('paused')).toEqual([]);
    expect((await agents.list({ phase: 'paused' })).map((a) => a.id)).not.toContain(id);
    await agent.cancel();
  });
});
