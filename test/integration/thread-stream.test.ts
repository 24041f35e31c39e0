/**
 * A thread's live stream (docs/contracts.md#threads): its `chat` and `route-message` calls are
 * published to `<thread id>/stream` and served by `GET /api/threads/:id/stream`, each delta naming
 * the message it answers — over real parts: the scripted fake streams, the LLM activity
 * publishes, one subscriber per web server serves SSE clients over a real socket.
 *
 * - A chat reply's text reaches an SSE client while its model call is still open (the fake holds
 *   the end of the reply until the client has seen a delta), and its deltas join to the reply
 *   the thread query records.
 * - The stream stays open while the thread idles and ends in-band when the thread closes: the
 *   thread itself tells its stream (`liveEnd`, behind the `threadStreamEnd` patch; recorded).
 * - The route is coded like the other thread routes: an unknown thread (or an agent's id) is 404.
 */
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent } from '../harness/agents';
import { plan, planReply, step, finish } from '../harness/plans';
import { testApp } from '../harness/http-app';
import { connectSse, serveOnLoopback } from '../harness/sse-client';
import { dataOf, deltasOf, type Delta } from '../harness/live-view';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';
import { LiveHub } from '../../client/live/live-hub';
import { ThreadClient } from '../../client/threads/thread-client';
import { sendUpdate } from '../../workflows/contract/thread-contract';
import { liveStreamId } from '../../workflows/contract/live-messages';
import { waitUntil } from '../../testkit/wait-until';
import { gate } from '../harness/gate';

jest.setTimeout(90_000);

const bed = agentTestbed();

/** The app over a real socket, with threads and a hub that looks for new streams often. */
async function serve() {
  const threads = new ThreadClient(bed.client, bed.config.taskQueue);
  const app = testApp(bed.client, bed.config.taskQueue, {
    threads,
    live: new LiveHub({ client: bed.client, retryMs: 100 }),
  });
  return { threads, served: await serveOnLoopback(app) };
}

test("a chat reply's deltas reach the thread's SSE stream while it is written, and join to the recorded reply", async () => {
  const seen = gate();
  const answer = 'Obsidian keeps your notes as local Markdown files; Notion lives in the cloud and shares well.';
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'chat', reason: 'a question' })],
      // The reply streams in several chunks, and its end waits until the client has seen part of it.
      chat: [reply.endAfter(reply.text(answer, { chunkDelayMs: 40 }), seen.opened)],
    }),
  );
  await withWorker(bed.config, async () => {
    const { threads, served } = await serve();
    const { id } = await threads.open();
    const sse = await connectSse(`${served.url}/api/threads/${encodeURIComponent(id)}/stream`);
    try {
      expect(sse.status).toBe(200);
      // Routed by the model (no kind): the route-message call streams too.
      const sent = bed.client.workflow
        .getHandle(id)
        .executeUpdate(sendUpdate, { args: [{ text: 'Which notes app keeps files local?' }] });
      const first = await sse.waitFor(
        'a text delta of the chat reply',
        (f) => f.event === 'delta' && dataOf<Delta>(f).purpose === 'chat',
      );
      // Causal: the call cannot have completed, its stream's end is still held.
      expect(bed.llm.requestsFor('chat')[0]?.answeredAt).toBeUndefined();
      expect(dataOf<Delta>(first)).toMatchObject({ agentId: id, messageId: 'msg-1', attempt: 1, channel: 'text' });
      expect(answer.startsWith(dataOf<Delta>(first).text)).toBe(true);
      expect(dataOf<Delta>(first).text.length).toBeLessThan(answer.length);
      seen.open();
      expect(await sent).toEqual({ messageId: 'msg-1', disposition: 'answered' });
      const view = await threads.get(id);
      const recorded = view.turns[0]?.reply;
      expect(recorded).toBe(answer);
      await sse.waitFor(
        'the chat call finished',
        (f) => f.event === 'call.finished' && dataOf<Delta>(f).purpose === 'chat',
      );
      const chat = deltasOf(sse.frames).filter((d) => d.purpose === 'chat' && d.messageId === 'msg-1');
      expect(chat.map((d) => d.text).join('')).toBe(recorded);
      // The router's call is on the thread's stream too, for the same message.
      const routed = deltasOf(sse.frames).filter((d) => d.purpose === 'route-message');
      expect(routed.map((d) => d.messageId)).toContain('msg-1');
      // The stream stays open while the thread does (idle now): no end yet.
      expect(sse.frames.some((f) => f.event === 'end')).toBe(false);
    } finally {
      sse.close();
      await served.close();
    }
  });
});

test('the thread stream ends in-band when the thread closes, told by the thread itself', async () => {
  bed.llm.respondWith(byRoute({ chat: [reply.text('Hello there, in a few chunks.')] }));
  await withWorker(bed.config, async () => {
    const { threads, served } = await serve();
    const { id } = await threads.open({}, { settings: { idleTimeoutMs: 3_000 } });
    const sse = await connectSse(`${served.url}/api/threads/${encodeURIComponent(id)}/stream`);
    try {
      expect(await threads.send(id, { text: 'hi', kind: 'chat' })).toEqual({
        messageId: 'msg-1',
        disposition: 'answered',
      });
      const handle = bed.client.workflow.getHandle(id);
      expect(await handle.result()).toEqual({ status: 'closed', reason: 'idle for 3 seconds' });
      // The stream ends with its `end`, after the reply's deltas.
      await sse.closed;
      const events = sse.frames.map((f) => f.event);
      expect(events.at(-1)).toBe('end');
      // Only the chat call: the thread's title call (made after the reply) is not published.
      expect(bed.llm.requestsFor('title')).toHaveLength(1);
      const calls = sse.frames.filter((f) => f.event === 'delta' || f.event.startsWith('call.'));
      expect(new Set(calls.map((f) => dataOf<Delta>(f).purpose))).toEqual(new Set(['chat']));
      expect(
        deltasOf(sse.frames)
          .filter((d) => d.purpose === 'chat')
          .map((d) => d.text)
          .join(''),
      ).toBe('Hello there, in a few chunks.');
      // The thread told its stream as it closed (not a web server that found it closed).
      const told = (await handle.fetchHistory()).events?.flatMap(
        (e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes ?? [],
      );
      expect(told?.map((a) => [a.workflowExecution?.workflowId, a.signalName])).toEqual([
        [liveStreamId(id), 'liveEnd'],
      ]);
      const stream = bed.client.workflow.getHandle(liveStreamId(id));
      await waitUntil('the live stream completed', async () => (await stream.describe()).status.name === 'COMPLETED');
      await recordHistory('thread-stream-end', handle);
    } finally {
      sse.close();
      await served.close();
    }
  });
});

test('the thread stream route is coded: an unknown thread, or an agent, is 404 NOT_FOUND', async () => {
  bed.llm.respondWith(
    byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('done')], summary: [reply.text('ok')] }),
  );
  await withWorker(bed.config, async () => {
    const { served } = await serve();
    const agent = await startAgent(bed.client, bed.config, { task: 'something' });
    try {
      for (const id of ['thread-none-00000000', agent.workflowId]) {
        const res = await fetch(`${served.url}/api/threads/${encodeURIComponent(id)}/stream`);
        expect(res.status).toBe(404);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      }
    } finally {
      await served.close();
    }
  });
});
