/**
 * A thread's bounds (docs/contracts.md#threads): at most 20 messages wait in it and 5 from one
 * sender (409 QUEUE_FULL, nothing recorded), and the thread's read is bounded — a message's text
 * cut past 2,000 characters (whole at `GET /api/threads/:id/messages/:messageId`), its turns
 * paged. Over HTTP, a real Temporal server and the scripted model; the running turn waits at its
 * plan check, so everything sent meanwhile waits behind it.
 */
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { waitForInteraction, type AgentHandle } from '../harness/agents';
import { postJson, testApp } from '../harness/http-app';
import { plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { ThreadClient } from '../../client/threads/thread-client';
import { threadTurnWorkflowId, type ThreadView, type Turn } from '../../workflows/contract/thread-contract';
import { DEFAULT_VIEW_TURNS, VIEW_TEXT_CHARS } from '../../workflows/contract/thread-contract';
import { MAX_WAITING_PER_SENDER, MAX_WAITING_PER_THREAD } from '../../workflows/thread/thread-queue-limits';

const bed = agentTestbed();

test('the limits as docs/contracts.md#threads states them', () => {
  expect(MAX_WAITING_PER_THREAD).toBe(20);
  expect(MAX_WAITING_PER_SENDER).toBe(5);
  expect(VIEW_TEXT_CHARS).toBe(2_000);
  expect(DEFAULT_VIEW_TURNS).toBe(50);
});

test('the 6th waiting message of one sender and the 21st of a thread are refused 409 QUEUE_FULL; a long text is cut in the read and whole at its route; turns are paged', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))] }));
  await withWorker(bed.config, async () => {
    const app = testApp(bed.client, bed.config.taskQueue, {
      threads: new ThreadClient(bed.client, bed.config.taskQueue),
    });
    const opened = await postJson(app, '/api/threads', {
      text: 'plan the launch',
      kind: 'task',
      mode: { confirmPlan: true },
    });
    const { id } = (await opened.json()) as { id: string };
    const turn: AgentHandle = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    await waitForInteraction(turn, 'plan.check');
    const send = (by: string, text: string) => postJson(app, `/api/threads/${id}/messages`, { text, kind: 'chat', by });
    const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

    const long = 'x'.repeat(4_991) + ' the end.'; // 5,000 characters
    for (const text of [long, 'two', 'three', 'four', 'five']) {
      const res = await send('ann', text);
      expect(res.status).toBe(202);
      expect(await res.json()).toMatchObject({ disposition: 'queued' });
    }
    const sixth = await send('ann', 'six');
    expect(sixth.status).toBe(409);
    expect(await codeOf(sixth)).toBe('QUEUE_FULL');

    for (const by of ['bo', 'cy', 'di'])
      for (let i = 1; i <= 5; i++) expect((await send(by, `${by} ${i}`)).status).toBe(202);
    const over = await send('ed', 'one more');
    expect(over.status).toBe(409);
    expect(await codeOf(over)).toBe('QUEUE_FULL');

    // Refused messages were never recorded: the running turn and the 20 waiting ones.
    const read = async (query = '') => (await (await app.request(`/api/threads/${id}${query}`)).json()) as ThreadView;
    const view = await read();
    expect(view.turns.map((t) => t.messageId)).toEqual(Array.from({ length: 21 }, (_, i) => `msg-${i + 1}`));
    expect(view.olderTurns).toBeUndefined();

    // The long text: cut in the read, saying how long it is; whole at the message route.
    const cut = view.turns[1];
    expect(cut?.text).toBe(`${long.slice(0, 2_000)}…`);
    expect(cut?.textChars).toBe(5_000);
    const whole = await app.request(`/api/threads/${id}/messages/msg-2`);
    expect(whole.status).toBe(200);
    expect(((await whole.json()) as Turn).text).toBe(long);
    expect((await app.request(`/api/threads/${id}/messages/msg-99`)).status).toBe(404);

    // Paged: the newest 5, then the 5 before them.
    const newest = await read('?limit=5');
    expect(newest.turns.map((t) => t.messageId)).toEqual(['msg-17', 'msg-18', 'msg-19', 'msg-20', 'msg-21']);
    expect(newest.olderTurns).toBe(16);
    const older = await read('?before=msg-17&limit=5');
    expect(older.turns.map((t) => t.messageId)).toEqual(['msg-12', 'msg-13', 'msg-14', 'msg-15', 'msg-16']);
    expect(older.olderTurns).toBe(11);
  });
});
