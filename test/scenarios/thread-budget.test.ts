/**
 * A thread's budget over its turns (docs/contracts.md#threads), against a real Temporal server
 * and the scripted model, asserted from the thread query and the turn's state: a turn's budget
 * raised through the agent's answer route cannot pass what the thread has left (INVALID_ANSWER),
 * a turn that reaches the thread's ceiling stops as a nested agent does instead of asking, and
 * a failed or cancelled turn's spend is counted in the thread's.
 */
import { ThreadClient } from '../../client/threads/thread-client';
import { AgentClient } from '../../client/agents/agent-client';
import { threadTurnWorkflowId, type ThreadView } from '../../workflows/contract/thread-contract';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { waitForInteraction, waitForState, type AgentHandle } from '../harness/agents';
import { recordHistory } from '../harness/histories';
import { postJson, testApp } from '../harness/http-app';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();
const threads = () => new ThreadClient(bed.client, bed.config.taskQueue);
const used = (promptTokens: number, completionTokens: number) => ({ usage: { promptTokens, completionTokens } });
/** The title call after a thread's first message, free here so the sums below are the turns' alone. */
const freeTitle = { title: [reply.text('Budgets', used(0, 0))] };

function waitForThread(id: string, what: string, holds: (view: ThreadView) => boolean): Promise<ThreadView> {
  return waitUntil(what, async () => {
    const view = await threads().get(id);
    return holds(view) ? view : undefined;
  });
}

test("a turn's budget raised through the agent's answer route is held to what the thread has left", async () => {
  bed.llm.respondWith(
    byRoute({
      ...freeTitle,
      plan: [{ ...planReply(plan([step('s1')])), ...used(100, 20) }],
      'step:s1': [{ ...finish('done'), ...used(10, 10) }],
      summary: [reply.text('all done', used(10, 10))],
    }),
  );
  await withWorker(bed.config, async () => {
    const app = testApp(bed.client, bed.config.taskQueue, { threads: threads() });
    const { id } = await threads().open({}, { settings: { budget: { tokens: 1_000 } } });
    // The sender's own budget (100) is below the thread's (1,000): at it the turn asks.
    await threads().send(id, { text: 'do it', kind: 'task', limits: { tokenBudget: 100 } });
    const agentId = threadTurnWorkflowId(id, 1);
    const turn: AgentHandle = bed.client.workflow.getHandle(agentId);
    const budget = await waitForInteraction(turn, 'budget');
    expect(budget).toMatchObject({ usedTokens: 120, tokenBudget: 100, maxTokenBudget: 1_000 });
    const answers = `/api/agents/${encodeURIComponent(agentId)}/answers`;
    const over = await postJson(app, answers, {
      interactionId: budget.id,
      answer: { decision: 'raise', tokenBudget: 5_000 },
    });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ error: { code: 'INVALID_ANSWER', field: 'answer.tokenBudget' } });
    const within = await postJson(app, answers, {
      interactionId: budget.id,
      answer: { decision: 'raise', tokenBudget: 1_000 },
    });
    expect(within.status).toBe(200);
    expect(await turn.result()).toMatchObject({ status: 'completed' });
    const view = await waitForThread(id, 'turn 1 counted', (v) => v.turns[0]?.status === 'completed');
    expect(view.usage.totalTokens).toBe(120 + 20 + 20);
  });
});

test('a turn that spends what the thread had left stops as a nested agent does, without asking; the thread then refuses', async () => {
  bed.llm.respondWith(byRoute({ ...freeTitle, plan: [{ ...planReply(plan([step('s1')])), ...used(300, 50) }] }));
  await withWorker(bed.config, async () => {
    const { id } = await threads().open({}, { settings: { budget: { tokens: 300 } } });
    await threads().send(id, { text: 'do it', kind: 'task' });
    const turn: AgentHandle = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    expect(await turn.result()).toMatchObject({ status: 'stopped', stopReason: 'budget' });
    const state = await waitForState(turn, 'ended', (s) => s.phase === 'stopped');
    expect(state.interactions.filter((i) => i.kind === 'budget')).toEqual([]);
    const view = await waitForThread(id, 'turn 1 stopped', (v) => v.turns[0]?.status === 'stopped');
    expect(view.usage.totalTokens).toBe(350);
    expect(await threads().send(id, { text: 'more', kind: 'chat' })).toMatchObject({ disposition: 'rejected' });
  });
});

test("a failed turn's spend and a cancelled turn's spend count in the thread's", async () => {
  const bad = { ...reply.malformedJson(), ...used(100, 0) };
  bed.llm.respondWith(
    byRoute({
      ...freeTitle,
      plan: [bad, bad, bad, { ...planReply(plan([step('s1')])), ...used(40, 10) }],
      'step:s1': [reply.hang()],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({}, { settings: { budget: { tokens: 100_000 } } });
    await client.send(id, { text: 'plan badly', kind: 'task' });
    const failed = await waitForThread(id, 'turn 1 failed', (v) => v.turns[0]?.status === 'failed');
    expect(failed.usage.totalTokens).toBe(300);

    await client.send(id, { text: 'plan then hang', kind: 'task' });
    const agentId = threadTurnWorkflowId(id, 2);
    await bed.llm.waitForRoute('step:s1'); // the step's call, which hangs
    await new AgentClient(bed.client, bed.config.taskQueue).cancel(agentId, { by: 'ops' });
    const cancelled = await waitForThread(id, 'turn 2 cancelled', (v) => v.turns[1]?.status === 'cancelled');
    expect(cancelled.usage.totalTokens).toBe(300 + 50);
    await recordHistory('agent-turn-cancel-spend', bed.client.workflow.getHandle(agentId));
  });
});
