/**
 * An agent's live stream continues as new on its own and its subscriber follows it: the real
 * publisher sends call after call, the stream workflow rolls over every few polls (a test
 * setting of `pollsPerRun`; 1,000 in production), and one hub subscriber gets every item once,
 * in order, at contiguous offsets, across the runs — then the in-band end.
 */
import { createLivePublisher } from '../../activities/live/live-publisher';
import { LiveHub } from '../../client/live/live-hub';
import type { LiveEvent } from '../../client/live/live-events';
import { LIVE_STREAM_WORKFLOW_TYPE, liveEndSignal, liveStreamId } from '../../workflows/contract/live-messages';
import type { agentStreamWorkflow } from '../../workflows/live/live-stream-workflow';
import { waitUntil } from '../../testkit/wait-until';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { closeClient, connectClient, testConfig, uniqueId, withWorker } from '../harness/test-env';
import type { Client } from '@temporalio/client';

jest.setTimeout(90_000);

let client: Client;
beforeAll(async () => {
  client = await connectClient();
});
afterAll(async () => {
  await closeClient(client);
});

test('the stream rolls over while published to and polled; the subscriber misses nothing and gets nothing twice', async () => {
  const llm = await ScriptedLlm.start(); // no model call here: the configuration wants an endpoint
  const config = testConfig(llm);
  const agentId = uniqueId('agent-rollover');
  await withWorker(config, async () => {
    // Started first with a low roll-over point; the publisher's signal-with-start then signals it.
    const stream = await client.workflow.start<typeof agentStreamWorkflow>(LIVE_STREAM_WORKFLOW_TYPE, {
      taskQueue: config.taskQueue,
      workflowId: liveStreamId(agentId),
      args: [{ agentId, pollsPerRun: 3 }],
    });
    const events: LiveEvent[] = [];
    let ended = false;
    const hub = new LiveHub({ client, retryMs: 50 });
    const stop = hub.follow(agentId, undefined, {
      event: (event) => events.push(event),
      reset: (from) => events.push({ offset: from, type: 'end', data: { reset: true } }),
      end: () => (ended = true),
    });
    const publisher = createLivePublisher({ client, taskQueue: config.taskQueue, batchMs: 20 });
    const sent: string[] = [];
    for (let n = 1; n <= 6; n++) {
      const call = publisher.open({ agentId, modelCallId: `${agentId}/run/${n}`, attempt: 1, purpose: 'step' });
      call.started(true);
      for (const word of ['one ', 'two ', 'three ']) {
        call.deltas([{ channel: 'text', text: `${n}:${word}` }]);
        sent.push(`${n}:${word}`);
        // Each delta its own batch, each answering a poll of its own: the runs turn over.
        await waitUntil('the delta reached the subscriber', () =>
          events.some((e) => e.type === 'delta' && String(e.data.text).includes(`${n}:${word}`)),
        );
      }
      await call.finished('completed', { finishReason: 'stop' });
    }
    await stream.signal(liveEndSignal);
    await waitUntil('the stream ended', () => ended);
    stop();
    // It rolled over more than once.
    const runs = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = '${liveStreamId(agentId)}'` })) runs.push(run);
    expect(runs.length).toBeGreaterThan(2);
    // Every item once, in order, at contiguous offsets; the text exactly as sent; no reset.
    const offsets = events.map((e) => e.offset);
    expect(offsets).toEqual(offsets.map((_, i) => (offsets[0] ?? 0) + i));
    const text = events.flatMap((e) => (e.type === 'delta' ? [String(e.data.text)] : []));
    expect(text.join('')).toBe(sent.join(''));
    expect(events.filter((e) => e.type === 'call.started')).toHaveLength(6);
    expect(events.filter((e) => e.type === 'call.finished')).toHaveLength(6);
    expect(events.at(-1)?.type).toBe('end');
    expect(events.filter((e) => e.type === 'end')).toHaveLength(1);
  });
  await llm.close();
});
