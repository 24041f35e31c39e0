/**
 * The thread routes (docs/contracts.md#threads) over a real thread client and Temporal server:
 * open (with a first message or empty), read, send, list, and the coded refusals; signed in, the
 * sender is the principal and a task turn's agent runs under it.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { postJson, testApp } from '../harness/http-app';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { tokenApp } from '../harness/token-app';
import { waitUntil } from '../../testkit/wait-until';
import { ThreadClient } from '../../client/threads/thread-client';
import { decompressPayload } from '../../temporal/payloads/compression-codec';
import { threadTurnWorkflowId, type ThreadView } from '../../workflows/contract/thread-contract';

const bed = agentTestbed();

test('open, send, read and list threads over HTTP; refusals are coded', async () => {
  bed.llm.respondWith(byRoute({ chat: [reply.text('Hi!'), reply.text('Still here.')] }));
  await withWorker(bed.config, async () => {
    const app = testApp(bed.client, bed.config.taskQueue, {
      threads: new ThreadClient(bed.client, bed.config.taskQueue),
    });
    const opened = await postJson(app, '/api/threads', { text: 'hello', kind: 'chat' });
    expect(opened.status).toBe(201);
    const { id, messageId } = (await opened.json()) as { id: string; messageId?: string };
    expect(messageId).toBe('msg-1');
    const sent = await postJson(app, `/api/threads/${id}/messages`, { text: 'you there?', kind: 'chat', by: 'bo' });
    expect(sent.status).toBe(202);
    expect(await sent.json()).toEqual({ messageId: 'msg-2', disposition: 'answered' });
    const read = await app.request(`/api/threads/${id}`);
    expect(read.status).toBe(200);
    const view = (await read.json()) as ThreadView;
    expect(view).toMatchObject({ id, title: 'hello', status: 'open' });
    expect(view.turns.map((t) => [t.messageId, t.by, t.reply, t.status])).toEqual([
      ['msg-1', undefined, 'Hi!', 'completed'],
      ['msg-2', 'bo', 'Still here.', 'completed'],
    ]);

    const empty = await postJson(app, '/api/threads', {});
    expect(empty.status).toBe(201);
    const emptyBody = (await empty.json()) as { id: string; messageId?: string };
    expect(emptyBody.messageId).toBeUndefined();
    expect(emptyBody.id).toMatch(/^thread-task-[0-9a-f]{8}$/);

    await waitUntil('both threads listed', async () => {
      const res = await app.request('/api/threads');
      const { threads } = (await res.json()) as { threads: { id: string; title: string }[] };
      const found = threads.filter((t) => t.id === id || t.id === emptyBody.id);
      return found.length === 2 ? found : undefined;
    });

    const bad = await postJson(app, `/api/threads/${id}/messages`, { text: '' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
    const missing = await app.request('/api/threads/thread-none-00000000');
    expect(missing.status).toBe(404);
  });
});

test('signed in, the sender is the principal: a task turn runs under it, and a `by` naming someone else is refused', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('done it')],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const people = [
      { principal: 'ann', roles: ['operator' as const], token: 'ann-token' },
      { principal: 'vic', roles: ['viewer' as const], token: 'vic-token' },
    ];
    const app = tokenApp(bed.client, bed.config.taskQueue, people, {
      threads: new ThreadClient(bed.client, bed.config.taskQueue),
    });
    const ann = { authorization: 'Bearer ann-token' };
    const opened = await postJson(app, '/api/threads', { text: 'write it', kind: 'task' }, ann);
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const agent = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    await agent.result();
    const view = (await (await app.request(`/api/threads/${id}`, { headers: ann })).json()) as ThreadView;
    expect(view.turns[0]).toMatchObject({ by: 'ann', kind: 'task', agentId: threadTurnWorkflowId(id, 1) });
    const history = await agent.fetchHistory();
    const input = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    expect(input).toBeDefined();
    const { principal } = defaultPayloadConverter.fromPayload<{ principal?: unknown }>(decompressPayload(input ?? {}));
    expect(principal).toEqual({ id: 'ann', roles: ['operator'], authenticatedBy: 'token' });

    const mismatch = await postJson(app, `/api/threads/${id}/messages`, { text: 'hi', kind: 'chat', by: 'bo' }, ann);
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as { error: { code: string } }).error.code).toBe('BY_MISMATCH');
    const viewer = await postJson(
      app,
      `/api/threads/${id}/messages`,
      { text: 'hi' },
      { authorization: 'Bearer vic-token' },
    );
    expect(viewer.status).toBe(403);
    expect((await app.request(`/api/threads/${id}`, { headers: { authorization: 'Bearer vic-token' } })).status).toBe(
      200,
    );
  });
});

test('`?wait=recorded` answers once the thread has recorded the message, while its chat reply is still being written; the turn then completes', async () => {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bed.llm.respondWith(
    byRoute({ chat: [reply.pauseAfter(reply.text('Hi there, friend.'), 2, gate), reply.text('Yes.')] }),
  );
  await withWorker(bed.config, async () => {
    const app = testApp(bed.client, bed.config.taskQueue, {
      threads: new ThreadClient(bed.client, bed.config.taskQueue),
    });
    try {
      const opened = await postJson(app, '/api/threads?wait=recorded', { text: 'hello', kind: 'chat' });
      expect(opened.status).toBe(201);
      const { id, messageId } = (await opened.json()) as { id: string; messageId?: string };
      expect(messageId).toBe('msg-1');
      // Answered before the reply was written: the model still holds its rest, the turn is being routed.
      const chat = await waitUntil('the chat request made', () => Promise.resolve(bed.llm.requestsFor('chat')[0]));
      expect(chat.answeredAt).toBeUndefined();
      const view = (await (await app.request(`/api/threads/${id}`)).json()) as ThreadView;
      expect(view.turns.map((t) => [t.messageId, t.status])).toEqual([['msg-1', 'routing']]);

      const bad = await postJson(app, `/api/threads/${id}/messages?wait=soon`, { text: 'and?', kind: 'chat' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
      const missing = await postJson(app, '/api/threads/thread-nope/messages?wait=recorded', {
        text: 'x',
        kind: 'chat',
      });
      expect(missing.status).toBe(404);

      release();
      await waitUntil('the first reply recorded', async () => {
        const turns = ((await (await app.request(`/api/threads/${id}`)).json()) as ThreadView).turns;
        return turns[0]?.status === 'completed';
      });
      const sent = await postJson(app, `/api/threads/${id}/messages?wait=recorded`, { text: 'still?', kind: 'chat' });
      expect(sent.status).toBe(202);
      expect(await sent.json()).toEqual({ messageId: 'msg-2' });
      await waitUntil('the second reply recorded', async () => {
        const turns = ((await (await app.request(`/api/threads/${id}`)).json()) as ThreadView).turns;
        return turns[1]?.status === 'completed';
      });
      const done = (await (await app.request(`/api/threads/${id}`)).json()) as ThreadView;
      expect(done.turns.map((t) => [t.messageId, t.reply, t.status])).toEqual([
        ['msg-1', 'Hi there, friend.', 'completed'],
        ['msg-2', 'Yes.', 'completed'],
      ]);
    } finally {
      release();
    }
  });
});

test('a thread whose workflow is terminated while it routes a message reads as closed (so followers stop waiting), and `?wait=recorded` to it is refused THREAD_CLOSED', async () => {
  const gate = new Promise<void>(() => undefined);
  bed.llm.respondWith(byRoute({ chat: [reply.pauseAfter(reply.text('Never finished.'), 1, gate)] }));
  await withWorker(bed.config, async () => {
    const app = testApp(bed.client, bed.config.taskQueue, {
      threads: new ThreadClient(bed.client, bed.config.taskQueue),
    });
    const opened = await postJson(app, '/api/threads?wait=recorded', { text: 'hello', kind: 'chat' });
    const { id } = (await opened.json()) as { id: string };
    const read = async () => (await (await app.request(`/api/threads/${id}`)).json()) as ThreadView;
    expect(await read()).toMatchObject({ status: 'open', turns: [{ messageId: 'msg-1', status: 'routing' }] });
    await bed.client.workflow.getHandle(id).terminate('test');
    expect(await read()).toMatchObject({
      status: 'closed',
      closedReason: 'its workflow is terminated',
      turns: [{ messageId: 'msg-1', status: 'routing' }],
    });
    const late = await postJson(app, `/api/threads/${id}/messages?wait=recorded`, { text: 'hello?', kind: 'chat' });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe('THREAD_CLOSED');
  });
});

test("a message the model fails for good is refused with the model's code (502) and its turn is failed; a bad mode opens no thread", async () => {
  // 401 is not retried: the chat call fails for good at once.
  bed.llm.respondWith(byRoute({ chat: [reply.error(401, 'bad key'), reply.error(401, 'bad key')] }));
  await withWorker(bed.config, async () => {
    const threads = new ThreadClient(bed.client, bed.config.taskQueue);
    const app = testApp(bed.client, bed.config.taskQueue, { threads });
    const listed = async () => (await threads.list()).map((t) => t.id);
    const before = await listed();

    const badMode = await postJson(app, '/api/threads', { text: 'plan it', mode: { plan: 'yes' } });
    expect(badMode.status).toBe(400);
    expect(((await badMode.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');

    const { id } = (await (await postJson(app, '/api/threads', {})).json()) as { id: string };
    const failed = await postJson(app, `/api/threads/${id}/messages`, { text: 'hello?', kind: 'chat' });
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { error: { code: string } }).error.code).toBe('LLM_AUTH');
    expect((await threads.get(id)).turns.map((t) => [t.messageId, t.status])).toEqual([['msg-1', 'failed']]);

    const firstFails = await postJson(app, '/api/threads', { text: 'hi', kind: 'chat' });
    expect(firstFails.status).toBe(502);
    const refusal = (await firstFails.json()) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe('LLM_AUTH');
    // The thread opened for it is named, so the conversation can go on there.
    const opened = /thread "([^"]+)" opened/.exec(refusal.error.message)?.[1] ?? '';
    expect((await threads.get(opened)).turns.map((t) => t.status)).toEqual(['failed']);
    // The bad mode started nothing: only the two threads opened since are new.
    const after = await waitUntil('two new threads listed', async () => {
      const now = await listed();
      return now.length === before.length + 2 ? now : undefined;
    });
    expect(new Set(after.filter((t) => !before.includes(t)))).toEqual(new Set([id, opened]));
  });
});

test("a new thread's body may set its idle timeout, its budget over all turns, and (opened empty) its name", async () => {
  bed.llm.respondWith(byRoute({ chat: [reply.text('First and last.')] }));
  await withWorker(bed.config, async () => {
    const threads = new ThreadClient(bed.client, bed.config.taskQueue);
    const app = testApp(bed.client, bed.config.taskQueue, { threads });
    const bad = await postJson(app, '/api/threads', { thread: { idleTimeoutMs: 5 } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { field?: string } }).error.field).toBe('thread.idleTimeoutMs');

    // A budget of one token: the first reply spends it, so the next message is refused.
    const opened = await postJson(app, '/api/threads', { text: 'hi', kind: 'chat', thread: { budget: { tokens: 1 } } });
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const next = await postJson(app, `/api/threads/${id}/messages`, { text: 'more?', kind: 'chat' });
    expect(await next.json()).toEqual({ messageId: 'msg-2', disposition: 'rejected' });
    expect((await threads.get(id)).turns[1]?.error).toMatch(/budget/);
    expect(bed.llm.requestsFor('chat')).toHaveLength(1);

    // Opened empty, named after the message the page sends next: its id's words and its list title.
    const named = await postJson(app, '/api/threads', { thread: { name: 'compare notes apps' } });
    const namedBody = (await named.json()) as { id: string; messageId?: string };
    expect(namedBody.id).toMatch(/^thread-compare-notes-apps-[0-9a-f]{8}$/);
    expect(namedBody.messageId).toBeUndefined();
    const listed = await waitUntil('the named thread listed', async () =>
      (await threads.list()).find((t) => t.id === namedBody.id),
    );
    expect(listed.title).toBe('compare notes apps');

    // Idle for 2 s: the thread closes, saying why.
    const idle = await postJson(app, '/api/threads', { thread: { idleTimeoutMs: 2_000 } });
    const idleId = ((await idle.json()) as { id: string }).id;
    const closed = await waitUntil('the idle thread closed', async () => {
      const view = await threads.get(idleId);
      return view.status === 'closed' ? view : undefined;
    });
    expect(closed.closedReason).toBe('idle for 2 seconds');
  });
});
