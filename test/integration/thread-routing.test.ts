/**
 * How a thread routes a message it was given no kind for, against a real Temporal server and the
 * scripted model: a message with files is a task without the router's call (a chat reply would
 * leave its files unread), even sent straight to the `send` update; and a router call that spends
 * what was left of the thread's budget refuses the message before any reply or agent.
 */
import { ThreadClient } from '../../client/threads/thread-client';
import { sendUpdate, threadTurnWorkflowId } from '../../workflows/contract/thread-contract';
import type { threadWorkflow } from '../../workflows/thread/thread-workflow';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { recordHistory } from '../harness/histories';
import { expectNoNewRequests } from '../harness/no-new-requests';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();
/** Several times what a call takes to reach the fake once scheduled. */
const QUIET_WINDOW_MS = 1000;
const threads = () => new ThreadClient(bed.client, bed.config.taskQueue);

test("a message with files and no kind, sent straight to the thread's send update, runs as a task with no router call", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('read the notes')],
      summary: [reply.text('The notes are read.')],
      title: [reply.text('Notes')],
    }),
  );
  await withWorker(bed.config, async () => {
    const { id } = await threads().open({});
    const thread = bed.client.workflow.getHandle<typeof threadWorkflow>(id);
    // What a program talking to Temporal directly sends: no kind, so the thread decides.
    const result = await thread.executeUpdate(sendUpdate, {
      args: [{ text: 'what do these notes say?', files: ['inputs/notes.txt'] }],
    });
    expect(result).toEqual({ messageId: 'msg-1', disposition: 'started' });
    const agent = bed.client.workflow.getHandle(threadTurnWorkflowId(id, 1));
    expect(await agent.result()).toMatchObject({ status: 'completed' });
    expect(bed.llm.requestsFor('route-message')).toHaveLength(0);
    expect(bed.llm.requestsFor('chat')).toHaveLength(0);
    const view = await threads().get(id);
    expect(view.turns[0]).toMatchObject({ messageId: 'msg-1', kind: 'task', agentId: agent.workflowId });
    await recordHistory('thread-files-are-task', thread);
  });
});

test("a router call that spends the rest of the thread's budget refuses its message before a reply", async () => {
  const used = (promptTokens: number, completionTokens: number) => ({ usage: { promptTokens, completionTokens } });
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'chat', reason: 'small talk' }, used(80, 40))],
      chat: [reply.text('never sent', used(10, 10))],
      title: [reply.text('Budget', used(5, 5))],
    }),
  );
  await withWorker(bed.config, async () => {
    const { id } = await threads().open({}, { settings: { budget: { tokens: 100 } } });
    expect(await threads().send(id, { text: 'how are you?' })).toEqual({
      messageId: 'msg-1',
      disposition: 'rejected',
    });
    const view = await threads().get(id);
    expect(view.turns[0]).toMatchObject({ status: 'rejected', disposition: 'rejected' });
    expect(view.turns[0]?.kind).toBeUndefined();
    expect(view.turns[0]?.error).toContain('budget is spent');
    expect(bed.llm.requestsFor('route-message')).toHaveLength(1);
    // Neither a reply nor the title call (which the same workflow task would have scheduled): the
    // thread's only call is the router's, and it spends nothing more.
    const history = await bed.client.workflow.getHandle(id).fetchHistory();
    expect(history.events?.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(1);
    await expectNoNewRequests(bed.llm, 1, QUIET_WINDOW_MS);
    expect(bed.llm.requestsFor('chat')).toHaveLength(0);
    expect(bed.llm.requestsFor('title')).toHaveLength(0);
    expect((await threads().get(id)).usage.totalTokens).toBe(120);
    await recordHistory('thread-budget-after-routing', bed.client.workflow.getHandle(id));
  });
});
