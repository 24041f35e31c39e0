/**
 * How many signals a model call costs its live stream (activities/live/live-publisher.ts): each
 * is a server write and a workflow task of the stream, so a short call goes out as one — its
 * start, every delta that arrived together and its end — while a slow one still shows its
 * start within `startMs` and its first delta at once. Counted from the stream's own history.
 */
import { temporal } from '@temporalio/proto';
import { createLivePublisher } from '../../activities/live/live-publisher';
import { liveReadQuery, liveStreamId, type LivePage } from '../../workflows/contract/live-messages';
import { waitUntil } from '../../testkit/wait-until';
import { agentTestbed } from '../harness/agent-testbed';
import { uniqueId, withWorker } from '../harness/test-env';

jest.setTimeout(60_000);

const bed = agentTestbed();

/** The `livePublish` signals the stream of `agentId` has taken. */
async function signalsOf(agentId: string): Promise<number> {
  const history = await bed.client.workflow.getHandle(liveStreamId(agentId)).fetchHistory();
  const signaled = temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED;
  return (history.events ?? []).filter((e) => e.eventType === signaled).length;
}

/** The stream's retained entries, as its read query shows them. */
async function entriesOf(agentId: string): Promise<LivePage['items']> {
  return (await bed.client.workflow.getHandle(liveStreamId(agentId)).query(liveReadQuery, {})).items;
}

test('a short call — its start, deltas that came together, its end — is one signal', async () => {
  const agentId = uniqueId('agent-short');
  await withWorker(bed.config, async () => {
    const publisher = createLivePublisher({ client: bed.client, taskQueue: bed.config.taskQueue });
    const call = publisher.open({ agentId, modelCallId: `${agentId}/run/1`, attempt: 1, purpose: 'step' });
    call.started(true);
    // A fast reply: its chunks are read in one turn of the event loop, then the call finishes.
    call.deltas([{ channel: 'text', text: 'Hello' }]);
    call.deltas([{ channel: 'text', text: ', world' }]);
    await call.finished('completed', { finishReason: 'stop' });
    await waitUntil('the stream has the call', async () => (await entriesOf(agentId)).length >= 3);
    expect((await entriesOf(agentId)).map((i) => i.entry.type)).toEqual(['call.started', 'delta', 'call.finished']);
    expect(await signalsOf(agentId)).toBe(1);
  });
});

test('a slow call still shows its start before any delta, and its first delta without waiting for a batch', async () => {
  const agentId = uniqueId('agent-slow');
  await withWorker(bed.config, async () => {
    const publisher = createLivePublisher({
      client: bed.client,
      taskQueue: bed.config.taskQueue,
      startMs: 50,
      batchMs: 60_000,
    });
    const call = publisher.open({ agentId, modelCallId: `${agentId}/run/1`, attempt: 1, purpose: 'step' });
    call.started(true);
    // No delta yet: the start goes alone once startMs has passed.
    await waitUntil('the start reached the stream', async () => (await entriesOf(agentId).catch(() => [])).length > 0);
    expect((await entriesOf(agentId)).map((i) => i.entry.type)).toEqual(['call.started']);
    // The first delta goes at once, though the batch interval is a minute.
    call.deltas([{ channel: 'text', text: 'Thinking done' }]);
    await waitUntil('the first delta reached the stream', async () => (await entriesOf(agentId)).length > 1);
    await call.finished('completed', { finishReason: 'stop' });
    await waitUntil('the end reached the stream', async () => (await entriesOf(agentId)).length > 2);
    expect((await entriesOf(agentId)).map((i) => i.entry.type)).toEqual(['call.started', 'delta', 'call.finished']);
    expect(await signalsOf(agentId)).toBe(3);
  });
});
