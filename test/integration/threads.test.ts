/**
 * Threads (docs/contracts.md#threads) against a real Temporal server and the scripted model,
 * asserted from its request log and the `thread` query: a chat message is answered with no
 * plan; a task message runs an agent child `<thread>/turn-<n>`; a follow-up task's planner hears
 * the earlier turn's step result (across a continue-as-new, whose carry is kept); the router
 * decides when the sender gives no kind; messages during a running turn are queued, rejected
 * or steered — one way: the turn's result names what its steps heard, and the thread queues the
 * rest as its next turns (heard, unheard, late); an idle thread closes after its idle timeout.
 */
import { temporal } from '@temporalio/proto';
import { defaultPayloadConverter } from '@temporalio/common';
import { reply } from '../fake-llm/replies';
import { decompressPayload } from '../../temporal/payloads/compression-codec';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, waitForInteraction, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { ThreadClient } from '../../client/threads/thread-client';
import { AgentClient } from '../../client/agents/agent-client';
import { ClientError } from '../../client/client-error';
import { stepWorkflowId } from '../../workflows/base/ids';
import { stateQuery } from '../../workflows/contract/messages';
import { steerSignal, threadTurnWorkflowId, type ThreadView } from '../../workflows/contract/thread-contract';
import type { threadWorkflow } from '../../workflows/thread/thread-workflow';

const bed = agentTestbed();
const threads = () => new ThreadClient(bed.client, bed.config.taskQueue);

/** The text of every message of a recorded request, joined. */
const wholeText = (messages: { content?: unknown }[]): string =>
  messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

function waitForThread(id: string, what: string, holds: (view: ThreadView) => boolean): Promise<ThreadView> {
  return waitUntil(what, async () => {
    const view = await threads().get(id);
    return holds(view) ? view : undefined;
  });
}

/** Waits until the step's history has the `steer` signal its agent passed on. */
async function steerReached(stepHandle: { fetchHistory(): Promise<temporal.api.history.v1.IHistory> }): Promise<void> {
  await waitUntil('the step got the steer signal', async () => {
    const history = await stepHandle.fetchHistory();
    const names = (history.events ?? []).map((e) => e.workflowExecutionSignaledEventAttributes?.signalName);
    return names.includes('steer') ? true : undefined;
  });
}

test('a chat message is answered in words, with the conversation so far and no plan', async () => {
  bed.llm.respondWith(byRoute({ chat: [reply.text('Hello! How can I help?'), reply.text('You said hi.')] }));
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id, messageId } = await client.open({ text: 'hi there', kind: 'chat' });
    expect(id).toMatch(/^thread-hi-there-[0-9a-f]{8}$/);
    expect(messageId).toBe('msg-1');
    expect(await client.send(id, { text: 'what did I say?', kind: 'chat' })).toEqual({
      messageId: 'msg-2',
      disposition: 'answered',
    });
    const view = await client.get(id);
    expect(view).toMatchObject({ id, title: 'hi there', status: 'open' });
    expect(view.turns).toEqual([
      {
        messageId: 'msg-1',
        text: 'hi there',
        kind: 'chat',
        disposition: 'answered',
        status: 'completed',
        reply: 'Hello! How can I help?',
      },
      {
        messageId: 'msg-2',
        text: 'what did I say?',
        kind: 'chat',
        disposition: 'answered',
        status: 'completed',
        reply: 'You said hi.',
      },
    ]);
    expect(bed.llm.requestsFor('plan')).toHaveLength(0);
    const second = bed.llm.requestsFor('chat')[1]?.body.messages ?? [];
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(second.at(-1)?.content).toBe('what did I say?');
    expect(second[2]?.content).toBe('Hello! How can I help?');
  });
});

test('a send that waits only for acceptance learns its messageId from the thread by its update id, even beside the same text sent at once', async () => {
  bed.llm.respondWith(byRoute({ chat: [reply.text('First answer.'), reply.text('Second answer.')] }));
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open();
    const heard: string[][] = [[], []];
    const sends = [0, 1].map((i) =>
      client.send(
        id,
        { text: 'same words', kind: 'chat', by: 'ana' },
        { accepted: (_thread, messageId) => heard[i]?.push(messageId) },
      ),
    );
    const results = await Promise.all(sends);
    // Each hook heard its own message (reading back "the newest turn with this text and sender"
    // would have told both the second), once, before its reply.
    expect(heard).toEqual(results.map((r) => [r.messageId]));
    expect(new Set(results.map((r) => r.messageId))).toEqual(new Set(['msg-1', 'msg-2']));
  });
});

test("the router decides when no kind is given; a task runs as the agent <thread>/turn-<n>, and a follow-up's planner hears the earlier step results across a continue-as-new", async () => {
  bed.llm.respondWith(
    byRoute({
      'route-message': [
        reply.text('not json at all'),
        reply.json({ kind: 'task', reason: 'it needs research' }),
        reply.json({ kind: 'task', reason: 'more work' }),
      ],
      plan: [planReply(plan([step('s1')])), planReply(plan([step('s1')]))],
      'step:s1': [finish('Notion costs $10 per seat'), finish('Obsidian is free')],
      summary: [reply.text('Notion: $10/seat'), reply.text('Obsidian: free')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    // Rolls over between every turn: the carry of this release is recorded too.
    const { id } = await client.open({}, { settings: { rollOverEvents: 1 } });
    const firstRun = (await bed.client.workflow.getHandle(id).describe()).runId;
    expect(await client.send(id, { text: 'find the price of Notion' })).toEqual({
      messageId: 'msg-1',
      disposition: 'started',
    });
    const agentId = threadTurnWorkflowId(id, 1);
    expect(await bed.client.workflow.getHandle(agentId).result()).toMatchObject({ status: 'completed' });
    await waitForThread(id, 'turn 1 completed', (v) => v.turns[0]?.status === 'completed');
    // The router was corrected once, and heard the message alone after its instructions.
    const routed = bed.llm.requestsFor('route-message');
    expect(routed[0]?.body.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', expect.stringContaining('"kind": "chat" | "task"')],
      ['user', 'find the price of Notion'],
    ]);
    expect(routed[1]?.body.messages.at(-1)?.content).toContain('could not be used');

    await client.send(id, { text: 'now compare it with Obsidian' });
    const view = await waitForThread(id, 'turn 2 completed', (v) => v.turns[1]?.status === 'completed');
    expect(view.turns.map((t) => [t.messageId, t.kind, t.disposition, t.agentId, t.status, t.reply])).toEqual([
      ['msg-1', 'task', 'started', agentId, 'completed', 'Notion: $10/seat'],
      ['msg-2', 'task', 'started', threadTurnWorkflowId(id, 2), 'completed', 'Obsidian: free'],
    ]);
    expect(view.turns[0]).toMatchObject({
      reason: 'it needs research',
      steps: [{ id: 's1', result: 'Notion costs $10 per seat' }],
    });
    const [, secondPlan] = bed.llm.requestsFor('plan');
    const planned = wholeText(secondPlan?.body.messages ?? []);
    expect(planned).toContain('now compare it with Obsidian');
    expect(planned).toContain('Notion costs $10 per seat');
    // The first plan knew nothing earlier.
    expect(wholeText(bed.llm.requestsFor('plan')[0]?.body.messages ?? [])).not.toContain(
      'Earlier in this conversation',
    );
    const first = bed.client.workflow.getHandle<typeof threadWorkflow>(id, firstRun);
    expect((await first.describe()).status.name).toBe('CONTINUED_AS_NEW');
    await recordHistory('thread-turns', first);
  });
});

test('while a task turn runs, a message is queued (the default) or rejected; the queued one runs next', async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.after(finish('long work done'), gate)],
      summary: [reply.text('done')],
      chat: [reply.text('the earlier task is done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({ text: 'do the long work', kind: 'task' });
    await bed.llm.waitForRoute('step:s1'); // the step's call, which waits at the gate
    expect(await client.send(id, { text: 'stop that', kind: 'task', policy: 'reject' })).toEqual({
      messageId: 'msg-2',
      disposition: 'rejected',
    });
    expect(await client.send(id, { text: 'how did it go?', kind: 'chat' })).toEqual({
      messageId: 'msg-3',
      disposition: 'queued',
    });
    const waiting = await client.get(id);
    expect(waiting.turns.map((t) => t.status)).toEqual(['running', 'rejected', 'queued']);
    expect(bed.llm.requestsFor('chat')).toHaveLength(0);
    release();
    const view = await waitForThread(id, 'the queued turn answered', (v) => v.turns[2]?.status === 'completed');
    expect(view.turns.map((t) => [t.disposition, t.status])).toEqual([
      ['started', 'completed'],
      ['rejected', 'rejected'],
      ['queued', 'completed'],
    ]);
    expect(view.turns[2]?.reply).toBe('the earlier task is done');
    // The rejected message reached nobody: no agent, no model call.
    expect(view.turns[1]?.agentId).toBeUndefined();
    expect(wholeText(bed.llm.requestsFor('chat')[0]?.body.messages ?? [])).not.toContain('stop that');
  });
});

test("steer: the running step's next model call hears the message, and the agent's timeline records it", async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.after(reply.toolCall('list_files', {}), gate), finish('listed, as asked')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({ text: 'look at the files', kind: 'task' });
    await bed.llm.waitForRoute('step:s1'); // the step's first call, waiting at the gate
    const steered = await client.send(id, { text: 'only the markdown ones, please', policy: 'steer', by: 'ann' });
    expect(steered).toEqual({ messageId: 'msg-2', disposition: 'steered' });
    const agentId = threadTurnWorkflowId(id, 1);
    // The agent passed it on: the step has the signal before its first call returns.
    const stepHandle = bed.client.workflow.getHandle(stepWorkflowId(agentId, 's1'));
    await steerReached(stepHandle);
    release();
    // One way: the turn's result names the message its step's model heard.
    const turn: AgentHandle = bed.client.workflow.getHandle(agentId);
    expect((await turn.result()).heard).toEqual(['msg-2']);
    const [first, second] = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1');
    expect(wholeText(first?.body.messages ?? [])).not.toContain('only the markdown ones');
    const last = second?.body.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toContain('only the markdown ones, please');
    expect(last?.content).toContain('ann');
    const state = await bed.client.workflow.getHandle(agentId).query(stateQuery);
    expect(state.events.filter((e) => e.type === 'message.steered').map((e) => e.message)).toEqual([
      'ann to s1: only the markdown ones, please',
    ]);
    // Heard: once the turn has ended, the message stays delivered and nothing is queued again.
    const view = await waitForThread(id, 'the turn settled', (v) => v.turns[0]?.status === 'completed');
    expect(view.turns.map((t) => [t.messageId, t.disposition, t.status, t.agentId])).toEqual([
      ['msg-1', 'started', 'completed', agentId],
      ['msg-2', 'steered', 'delivered', agentId],
    ]);
    expect(bed.llm.requestsFor('route-message')).toHaveLength(0);
    expect(bed.llm.requestsFor('chat')).toHaveLength(0);
  });
});

test("a steer that comes while the step's model writes its final answer makes the step go one more round, which hears it", async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.after(finish('3 files'), gate), finish('2 markdown files')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({ text: 'count the files', kind: 'task' });
    await bed.llm.waitForRoute('step:s1'); // the call that will finish the step, waiting at the gate
    await client.send(id, { text: 'only the markdown ones', policy: 'steer', by: 'ann' });
    const agentId = threadTurnWorkflowId(id, 1);
    const stepHandle = bed.client.workflow.getHandle(stepWorkflowId(agentId, 's1'));
    await steerReached(stepHandle);
    release();
    await bed.client.workflow.getHandle(agentId).result();
    const calls = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1');
    expect(calls).toHaveLength(2);
    const last = calls[1]?.body.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toContain('only the markdown ones');
    const state = await bed.client.workflow.getHandle(agentId).query(stateQuery);
    expect(state.steps.map((s) => [s.id, s.status, s.result])).toEqual([['s1', 'completed', '2 markdown files']]);
    await recordHistory('step-hears-late-steer', stepHandle);
  });
});

test('steer while the agent plans: the message is held and the steps that start next hear it at their first call', async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [reply.after(planReply(plan([step('s1'), step('s2')])), gate)],
      'step:s1': [finish('one')],
      'step:s2': [finish('two')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({ text: 'look at the files', kind: 'task' });
    await bed.llm.waitForRoute('plan'); // the planner's call, waiting at the gate
    const agentId = threadTurnWorkflowId(id, 1);
    for (const text of ['only the markdown ones', 'and skip the drafts'])
      expect(await client.send(id, { text, policy: 'steer', by: 'ann' })).toMatchObject({ disposition: 'steered' });
    const agent = bed.client.workflow.getHandle(agentId);
    await waitUntil('both messages held', async () => {
      const state = await agent.query(stateQuery);
      return state.heldSteers?.length === 2 ? state : undefined;
    });
    release();
    await agent.result();
    for (const stepId of ['s1', 's2']) {
      const [first] = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === stepId);
      const messages = first?.body.messages ?? [];
      expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'user']);
      expect(messages[2]?.content).toContain('only the markdown ones');
      expect(messages[3]?.content).toContain('and skip the drafts');
    }
    const state = await agent.query(stateQuery);
    expect(state.heldSteers).toBeUndefined();
    expect(state.events.filter((e) => e.type === 'message.steered').map((e) => e.message)).toEqual([
      'ann with no step running (held for the next steps): only the markdown ones',
      'ann with no step running (held for the next steps): and skip the drafts',
      '2 held messages to s1, s2',
    ]);
  });
});

test("late steer: one that comes after the turn's last round is not delivered, and the thread answers it as its next turn once the turn ends", async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('one')],
      summary: [reply.after(reply.text('done'), gate)],
      chat: [reply.text('noted for next time')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({ text: 'look at the files', kind: 'task' });
    await bed.llm.waitForRoute('summary'); // the turn's steps are over: its summary waits at the gate
    const agent: AgentHandle = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    const text = 'also count the drafts';
    // The thread still steers it in (nothing tells it the steps are over): its sender is told so.
    expect(await client.send(id, { text, policy: 'steer', by: 'ann', kind: 'chat' })).toEqual({
      messageId: 'msg-2',
      disposition: 'steered',
    });
    // Signalled to the agent itself (as from the Temporal UI): recorded, held for nobody.
    await agent.signal(steerSignal, { text: 'also too late', by: 'bob' });
    const state = await waitUntil('both steers on the timeline', async () => {
      const current = await agent.query(stateQuery);
      return current.events.filter((e) => e.type === 'message.steered').length === 2 ? current : undefined;
    });
    expect(state.events.filter((e) => e.type === 'message.steered').map((e) => e.message)).toEqual([
      `ann after the last step (not delivered): ${text}`,
      'bob after the last step (not delivered): also too late',
    ]);
    expect(state.heldSteers).toBeUndefined();
    expect((await client.get(id)).turns[1]).toMatchObject({ disposition: 'steered', status: 'delivered' });
    release();
    // No step heard it: the turn's result does not name it, and the thread answers it next.
    expect((await agent.result()).heard).toBeUndefined();
    const view = await waitForThread(id, 'the late message answered', (v) => v.turns[1]?.status === 'completed');
    expect(view.turns.map((t) => [t.text, t.disposition, t.status, t.reply, t.agentId])).toEqual([
      ['look at the files', 'started', 'completed', 'done', threadTurnWorkflowId(id, 1)],
      [text, 'steered', 'completed', 'noted for next time', undefined],
    ]);
    expect(wholeText(bed.llm.requestsFor('chat')[0]?.body.messages ?? [])).toContain(text);
    await recordHistory('thread-turn-steer-late', agent);
    await recordHistory('thread-steer-late', bed.client.workflow.getHandle(id));
  });
});

test('unheard: a steer held while the plan is checked reaches no step when the plan is cancelled, and is queued as the next turn', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      chat: [reply.text('the newer file, next time')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({ text: 'look at the files', kind: 'task', mode: { confirmPlan: true } });
    const agent: AgentHandle = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    const check = await waitForInteraction(agent, 'plan.check');
    const text = 'use the newer file';
    expect(await client.send(id, { text, policy: 'steer', by: 'ann', kind: 'chat' })).toMatchObject({
      disposition: 'steered',
    });
    await waitUntil('the message held', async () =>
      (await agent.query(stateQuery)).heldSteers?.length === 1 ? true : undefined,
    );
    await answer(agent, check.id, { decision: 'cancel' });
    await agent.result().catch(() => undefined);
    const state = await agent.query(stateQuery);
    expect(state.events.filter((e) => e.type === 'message.steered').map((e) => e.message)).toEqual([
      `ann with no step running (held for the next steps): ${text}`,
      'the held message not delivered: no step started after them',
    ]);
    expect(state.heard).toBeUndefined();
    const view = await waitForThread(id, 'the unheard message answered', (v) => v.turns[1]?.status === 'completed');
    expect(view.turns.map((t) => [t.disposition, t.status, t.reply])).toEqual([
      ['started', 'cancelled', undefined],
      ['steered', 'completed', 'the newer file, next time'],
    ]);
    await recordHistory('thread-turn-steer-unheard', agent);
  });
});

test("a turn's status follows its agent's end: cancelled from outside, failed with its error; the thread goes on", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [reply.hang(), reply.malformedJson(), reply.malformedJson(), reply.malformedJson()],
      chat: [reply.text('still here')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const agents = new AgentClient(bed.client, bed.config.taskQueue);
    const { id } = await client.open({ text: 'plan forever', kind: 'task' });
    await bed.llm.waitForRoute('plan');
    await agents.cancel(threadTurnWorkflowId(id, 1), { by: 'ops' });
    await waitForThread(id, 'turn 1 cancelled', (v) => v.turns[0]?.status === 'cancelled');
    await client.send(id, { text: 'plan badly', kind: 'task' });
    const view = await waitForThread(id, 'turn 2 failed', (v) => v.turns[1]?.status === 'failed');
    expect(view.turns[1]?.error).toMatch(/plan/i);
    expect(await client.send(id, { text: 'are you ok?', kind: 'chat' })).toEqual({
      messageId: 'msg-3',
      disposition: 'answered',
    });
    // Both turn agents are agents like any other: listed with the message as their task.
    const listed = await waitUntil('the turns listed', async () => {
      const all = await agents.list();
      const turns = all.filter((a) => a.id.startsWith(`${id}/turn-`));
      return turns.length === 2 ? turns : undefined;
    });
    expect(listed.map((a) => [a.id, a.task]).sort()).toEqual([
      [threadTurnWorkflowId(id, 1), 'plan forever'],
      [threadTurnWorkflowId(id, 2), 'plan badly'],
    ]);
  });
});

test("a thread's budget counts its calls and its turns' agents, caps a turn's own budget at what is left, and refuses messages once spent", async () => {
  const used = (promptTokens: number, completionTokens: number) => ({ usage: { promptTokens, completionTokens } });
  bed.llm.respondWith(
    byRoute({
      chat: [reply.text('first', used(600, 100)), reply.text('second', used(200, 100))],
      // The title call after the first message, free here so the sums below are the turns' alone.
      title: [reply.text('Budgets', used(0, 0))],
      plan: [{ ...planReply(plan([step('s1')])), ...used(10, 10) }],
      'step:s1': [{ ...finish('done'), ...used(10, 10) }],
      summary: [reply.text('sum', used(10, 10))],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({ text: 'hi', kind: 'chat' }, { settings: { budget: { tokens: 1_000 } } });
    await client.send(id, { text: 'do it', kind: 'task', limits: { tokenBudget: 5_000 } });
    const agent = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 2));
    await agent.result();
    const started = (await agent.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
    const input = defaultPayloadConverter.fromPayload<{ limits?: { tokenBudget?: number } }>(
      decompressPayload(started?.input?.payloads?.[0] ?? {}),
    );
    expect(input.limits?.tokenBudget).toBe(1_000 - 700);
    await waitForThread(id, 'turn 2 counted', (v) => v.turns[1]?.status === 'completed');
    expect(await client.send(id, { text: 'more', kind: 'chat' })).toEqual({
      messageId: 'msg-3',
      disposition: 'answered',
    });
    expect(await client.send(id, { text: 'and more', kind: 'chat' })).toEqual({
      messageId: 'msg-4',
      disposition: 'rejected',
    });
    const view = await client.get(id);
    expect(view.usage.totalTokens).toBe(700 + 60 + 300);
    expect(view.turns[3]?.status).toBe('rejected');
    expect(view.turns[3]?.error).toContain('budget is spent');
    expect(bed.llm.requestsFor('chat')).toHaveLength(2);
  });
});

test('a cancelled thread cancels its running turn before it closes (the turn is abandoned on any other close)', async () => {
  bed.llm.respondWith(byRoute({ plan: [reply.hang()] }));
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({ text: 'plan forever', kind: 'task' });
    await bed.llm.waitForRoute('plan');
    await bed.client.workflow.getHandle(id).cancel();
    const agent = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    // A turn cancelled from outside returns its result, as a nested agent does, so its spend is known.
    expect(await agent.result()).toMatchObject({ status: 'cancelled' });
    expect(await agent.query(stateQuery)).toMatchObject({ phase: 'cancelled' });
    expect((await bed.client.workflow.getHandle(id).describe()).status.name).toBe('CANCELLED');
  });
});

test('an idle thread waits with no workflow task, closes after its idle timeout saying so, and refuses further messages', async () => {
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id, messageId } = await client.open({}, { settings: { idleTimeoutMs: 1_500 } });
    expect(messageId).toBeUndefined();
    const handle = bed.client.workflow.getHandle<typeof threadWorkflow>(id);
    const result = await handle.result();
    // Between the idle timer's start and its firing: no workflow task at all.
    const types = ((await handle.fetchHistory()).events ?? []).map(
      (e) => temporal.api.enums.v1.EventType[e.eventType ?? 0],
    );
    const idle = types.slice(types.indexOf('EVENT_TYPE_TIMER_STARTED'), types.indexOf('EVENT_TYPE_TIMER_FIRED') + 1);
    expect(idle).toEqual(['EVENT_TYPE_TIMER_STARTED', 'EVENT_TYPE_TIMER_FIRED']);
    expect(result).toEqual({ status: 'closed', reason: 'idle for 1500 ms' });
    await expect(client.send(id, { text: 'anyone there?' })).rejects.toMatchObject({ code: 'THREAD_CLOSED' });
    await expect(client.send(id, { text: 'x' })).rejects.toBeInstanceOf(ClientError);
  });
});

test('a bad message is refused with INVALID_INPUT and recorded nowhere', async () => {
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open();
    await expect(client.send(id, { text: '   ' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(client.send(id, { text: 'go', limits: { maxReplans: 99 } })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect((await client.get(id)).turns).toEqual([]);
  });
});
