/**
 * A thread routes one message at a time, also when several wait for the same routing to end:
 * they wake in one workflow task, and only the first may be routed — the others meet their
 * policy behind it. (Before, every message that woke together was routed at once: two task
 * turns could run side by side, the later one's `reject` ignored.)
 */
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { ThreadClient } from '../../client/threads/thread-client';
import type { SendInput } from '../../workflows/contract/thread-contract';

const bed = agentTestbed();

/** A promise and the function that settles it. */
function opened(): { gate: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { gate, open };
}

test('messages that waited behind one chat reply are routed one at a time: the first task starts, the next meets its policy', async () => {
  const chat = opened();
  const work = opened();
  bed.llm.respondWith(
    byRoute({
      chat: [reply.after(reply.text('Hello.'), chat.gate)],
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.after(finish('written'), work.gate)],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = new ThreadClient(bed.client, bed.config.taskQueue);
    const { id } = await client.open();
    const first = client.send(id, { text: 'hi', kind: 'chat' });
    await bed.llm.waitForRoute('chat'); // the reply waits at the gate: the thread is routing
    // Two task messages recorded while it waits; the second asks to be rejected if a turn runs.
    const recorded = (body: SendInput) => {
      const seen = opened();
      const result = client.send(id, body, { accepted: () => seen.open() });
      return { result, recorded: seen.gate };
    };
    const second = recorded({ text: 'write the report', kind: 'task' });
    await second.recorded;
    const third = recorded({ text: 'write another report', kind: 'task', policy: 'reject' });
    await third.recorded;
    chat.open();

    expect(await first).toEqual({ messageId: 'msg-1', disposition: 'answered' });
    expect(await second.result).toEqual({ messageId: 'msg-2', disposition: 'started' });
    expect(await third.result).toEqual({ messageId: 'msg-3', disposition: 'rejected' });
    const view = await client.get(id);
    expect(view.turns.map((t) => [t.messageId, t.status, t.agentId !== undefined])).toEqual([
      ['msg-1', 'completed', false],
      ['msg-2', 'running', true],
      ['msg-3', 'rejected', false],
    ]);
    work.open();
    await bed.llm.waitForRoute('summary');
    // One agent planned: the rejected message started none.
    expect(bed.llm.requestsFor('plan')).toHaveLength(1);
    await waitUntil('the turn completed', async () => (await client.get(id)).turns[1]?.status === 'completed');
    await recordHistory('thread-one-at-a-time', bed.client.workflow.getHandle(id));
  });
});
