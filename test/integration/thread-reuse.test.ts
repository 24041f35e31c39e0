/**
 * Follow-ups that reuse the work (docs/contracts.md#plan, `reuse`) against a real Temporal
 * server and the scripted model: a later task turn is offered the earlier turns' finished steps,
 * its plan adopts one by reference, and that step starts completed with its result — never run
 * again (no step child, no model call, no tool call) — while a new step depending on it gets
 * that result; the plan check shows it as reused; a reuse naming no offered step is corrected.
 * A write approved in an earlier turn runs unasked when a later turn makes the same call under
 * the same policy outcome, audited as reused from that interaction; another call is asked.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, waitForInteraction, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { ThreadClient } from '../../client/threads/thread-client';
import { stepWorkflowId } from '../../workflows/base/ids';
import { stateQuery } from '../../workflows/contract/messages';
import { threadTurnWorkflowId } from '../../workflows/contract/thread-contract';
import { REUSE_UNKNOWN } from '../../workflows/model/plan/plan-reuse';
import { approvalDigest } from '../../workflows/step/approval-digest';
import { auditOf } from '../../client/agents/audit-entries';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig } from '../harness/test-env';

const bed = agentTestbed();

/** The text of every message of a recorded request, joined. */
const wholeText = (messages: { content?: unknown }[]): string =>
  messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

test("a follow-up's plan adopts an earlier step: it starts completed and never runs again, a new step gets its result, the plan check shows it reused, and a reuse of no offered step is corrected", async () => {
  await withWorker(bed.config, async () => {
    const client = new ThreadClient(bed.client, bed.config.taskQueue);
    const { id } = await client.open();
    const first = threadTurnWorkflowId(id, 1);
    const second = threadTurnWorkflowId(id, 2);
    const s1Result = 'Notion costs $10 per seat';
    bed.llm.respondWith(
      byRoute({
        plan: [
          planReply(plan([step('s1', [], { title: 'Find the price of Notion' })])),
          // Turn 2, first try: a step turn 1 never had.
          planReply(plan([step('s2', ['s1'])], { reuse: [{ agentId: first, stepId: 's7' }] })),
          planReply(plan([step('s2', ['s1'], { title: 'Compare' })], { reuse: [{ agentId: first, stepId: 's1' }] })),
        ],
        // One reply only: were s1 run again, the fake would run out and fail the test.
        'step:s1': [finish(s1Result)],
        'step:s2': [finish('Obsidian is free; Notion costs $10')],
        summary: [reply.text('Notion: $10/seat'), reply.text('Obsidian is cheaper')],
      }),
    );
    await client.send(id, { text: 'find the price of Notion', kind: 'task' });
    await bed.client.workflow.getHandle(first).result();
    await waitUntil('turn 1 recorded', async () =>
      (await client.get(id)).turns[0]?.status === 'completed' ? true : undefined,
    );

    await client.send(id, { text: 'now compare it with Obsidian', kind: 'task', mode: { confirmPlan: true } });
    const handle: AgentHandle = bed.client.workflow.getHandle(second);
    const check = await waitForInteraction(handle, 'plan.check');
    // The plan check shows the adopted step, marked, before the new one that needs it.
    expect(check.plan?.steps.map((s) => [s.id, s.reused])).toEqual([
      ['s1', { agentId: first, stepId: 's1' }],
      ['s2', undefined],
    ]);
    expect(check.plan?.steps[0]?.title).toBe('Find the price of Notion');
    await answer(handle, check.id, { decision: 'confirm' });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'Obsidian is cheaper' });

    // The planner was offered turn 1's step by reference, with its result.
    const [, offered, corrected] = bed.llm.requestsFor('plan');
    const told = wholeText(offered?.body.messages ?? []);
    expect(told).toContain(`{"agentId": "${first}", "stepId": "s1"}`);
    expect(told).toContain(s1Result);
    // The wrong reuse came back to it with its code, naming what may be reused.
    const correction = wholeText(corrected?.body.messages.slice(-1) ?? []);
    expect(correction).toContain(`reuse.0: ${REUSE_UNKNOWN}`);
    expect(correction).toContain(`{"agentId": "${first}", "stepId": "s1"}`);

    // s1 ran once, in turn 1: no model call of turn 2's s1, and no step child for it.
    const stepCalls = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] !== undefined);
    expect(stepCalls.map((r) => [r.headers['x-cairn-agent'], r.headers['x-cairn-step']])).toEqual([
      [first, 's1'],
      [second, 's2'],
    ]);
    await expect(bed.client.workflow.getHandle(stepWorkflowId(second, 's1')).describe()).rejects.toBeInstanceOf(
      WorkflowNotFoundError,
    );
    // s2 built on s1's result, handed to it as a dependency's.
    const s2Asked = wholeText(stepCalls[1]?.body.messages ?? []);
    expect(s2Asked).toContain(`## s1 · Find the price of Notion\n${s1Result}`);

    const state = await handle.query(stateQuery);
    const s1 = state.steps.find((s) => s.id === 's1');
    expect(s1).toMatchObject({ status: 'completed', result: s1Result, reused: { agentId: first, stepId: 's1' } });
    expect([s1?.attempts, s1?.rounds, s1?.toolCalls]).toEqual([0, 0, []]);
    expect(state.events.map((e) => e.message)).toContain(`s1 reused: step s1 of ${first}`);
    await recordHistory('thread-reuse-turn', handle);
  });
});

test('a write approved in an earlier turn runs unasked in a later one for the same digest, audited as reused; another call is asked', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'thread-approvals-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const write = { path: 'notes.txt', content: 'Notion: $10/seat' };
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('w1')])), planReply(plan([step('w2')]))],
      'step:w1': [reply.toolCall('write_file', write, 'c1'), finish('written')],
      'step:w2': [
        reply.toolCall('write_file', write, 'c2'),
        reply.toolCall('write_file', { ...write, content: 'something else' }, 'c3'),
        finish('written again'),
      ],
      summary: [reply.text('saved'), reply.text('saved again')],
    }),
  );
  await withWorker(config, async () => {
    const client = new ThreadClient(bed.client, config.taskQueue);
    const { id } = await client.open({ text: 'save the price', kind: 'task' });
    const first: AgentHandle = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    const asked = await waitForInteraction(first, 'tool.approval');
    expect(asked.digest).toBe(approvalDigest('write_file', write));
    await answer(first, asked.id, { decision: 'approve', digest: asked.digest }, 'ann');
    await first.result();
    await waitUntil('turn 1 recorded', async () =>
      (await client.get(id)).turns[0]?.status === 'completed' ? true : undefined,
    );

    await client.send(id, { text: 'save it again', kind: 'task' });
    const second: AgentHandle = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 2));
    // The same call runs unasked; a different one is asked as ever.
    const other = await waitForInteraction(second, 'tool.approval');
    expect(other.digest).toBe(approvalDigest('write_file', { ...write, content: 'something else' }));
    await answer(second, other.id, { decision: 'reject', digest: other.digest }, 'ann');
    await second.result();
    const state = await second.query(stateQuery);
    expect(state.interactions.filter((i) => i.kind === 'tool.approval').map((i) => i.id)).toEqual([other.id]);
    const calls = state.steps.find((s) => s.id === 'w2')?.toolCalls ?? [];
    expect(calls.map((c) => [c.callId, c.outcome, c.approvalReused?.interactionId])).toEqual([
      ['c2', 'ok', asked.id],
      ['c3', 'error', undefined],
    ]);
    // It ran: the tool's own answer came back.
    expect(bed.llm.heardBack('c2')).toBe(`wrote ${write.content.length} bytes to notes.txt`);
    const reused = auditOf(state).filter((e) => e.kind === 'approval.reused');
    expect(reused).toEqual([
      expect.objectContaining({ interactionId: asked.id, decision: 'approve', tool: 'write_file', stepId: 'w2' }),
    ]);
    expect(reused[0]?.what).toContain(`reused from ${asked.id} of ${threadTurnWorkflowId(id, 1)} (approved by ann)`);
    await recordHistory(
      'thread-approval-reused-step',
      bed.client.workflow.getHandle(stepWorkflowId(second.workflowId, 'w2')),
    );
  });
});
