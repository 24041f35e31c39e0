/**
 * A `send` to a thread the client already knows (opened or described by it) goes straight to
 * the thread, by the first run of its chain — no describe before it — and stays as safe as the
 * guarded send: a closed thread is still `THREAD_CLOSED`, and an id since taken by a workflow
 * of another kind is `NOT_FOUND` with nothing delivered to that workflow.
 */
import { temporal } from '@temporalio/proto';
import { Client, type WorkflowClientInterceptor } from '@temporalio/client';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { withWorker } from '../harness/test-env';
import { ThreadClient } from '../../client/threads/thread-client';
import { cairnDataConverter } from '../../temporal/payloads/data-converter';
import { AGENT_WORKFLOW_TYPE } from '../../workflows/model/agent/agent-contract';

const bed = agentTestbed();

/** A client that counts its describes. */
function countingClient(): { client: Client; describes: () => number } {
  let count = 0;
  const counting: WorkflowClientInterceptor = {
    describe: (input, next) => {
      count++;
      return next(input);
    },
  };
  const client = new Client({
    connection: bed.client.connection,
    interceptors: { workflow: [counting] },
    dataConverter: cairnDataConverter(bed.config.payloads),
  });
  return { client, describes: () => count };
}

test('a thread opened or described once is sent to with no describe; one it does not know is described first', async () => {
  bed.llm.respondWith(byRoute({ chat: [reply.text('one'), reply.text('two'), reply.text('three')] }));
  await withWorker(bed.config, async () => {
    const { client, describes } = countingClient();
    const opener = new ThreadClient(client, bed.config.taskQueue);
    const { id } = await opener.open();
    expect(await opener.send(id, { text: 'first', kind: 'chat' })).toEqual({
      messageId: 'msg-1',
      disposition: 'answered',
    });
    expect(describes()).toBe(0);
    // Another client (another web server, the CLI) has not seen it: it describes once, then knows it.
    const other = new ThreadClient(client, bed.config.taskQueue);
    expect(await other.send(id, { text: 'second', kind: 'chat' })).toEqual({
      messageId: 'msg-2',
      disposition: 'answered',
    });
    expect(describes()).toBe(1);
    expect(await other.send(id, { text: 'third', kind: 'chat' })).toEqual({
      messageId: 'msg-3',
      disposition: 'answered',
    });
    expect(describes()).toBe(1);
    expect((await opener.get(id)).turns.map((t) => t.reply)).toEqual(['one', 'two', 'three']);
  });
});

test("a known thread's id taken since by another kind of workflow is NOT_FOUND, and that workflow gets nothing", async () => {
  await withWorker(bed.config, async () => {
    const threads = new ThreadClient(bed.client, bed.config.taskQueue);
    const { id } = await threads.open();
    await bed.client.workflow.getHandle(id).terminate('making room');
    // Another kind of workflow under the same id (an agent that is never given a worker's attention here).
    const other = await bed.client.workflow.start(AGENT_WORKFLOW_TYPE, {
      taskQueue: `${bed.config.taskQueue}-elsewhere`,
      workflowId: id,
      args: [{ task: 'unrelated' }],
    });
    try {
      // Were the update sent by id alone it would wait there for a worker that never comes.
      const outcome = await Promise.race([
        threads.send(id, { text: 'hello', kind: 'chat' }).then(
          () => 'delivered',
          (err: unknown) => err,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000)),
      ]);
      expect(outcome).toMatchObject({ code: 'NOT_FOUND' });
      const types = ((await other.fetchHistory()).events ?? []).map(
        (e) => temporal.api.enums.v1.EventType[e.eventType ?? 0],
      );
      expect(types).toEqual(['EVENT_TYPE_WORKFLOW_EXECUTION_STARTED', 'EVENT_TYPE_WORKFLOW_TASK_SCHEDULED']);
    } finally {
      await other.terminate('test over');
    }
  });
});
