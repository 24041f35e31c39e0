/**
 * A viewer arriving as its agent's stream starts: the hub's first poll finds no stream
 * workflow, and by the time it looks again the stream runs — and answers the read query, as a
 * running workflow does. The hub must poll it, not take it for a stream that has closed and end
 * its viewers after the first page (found by the live-output benchmark: with ten agents
 * starting at once, some viewers got a call's first delta, then `end`, and nothing more).
 *
 * The race is made certain, not waited for: the hub's client answers its first poll with
 * WorkflowNotFoundError (a client interceptor) while the stream already runs.
 */
import { Client, WorkflowNotFoundError } from '@temporalio/client';
import { createLivePublisher } from '../../activities/live/live-publisher';
import { LiveHub } from '../../client/live/live-hub';
import type { LiveEvent } from '../../client/live/live-events';
import { cairnDataConverter } from '../../temporal/payloads/data-converter';
import { LIVE_STREAM_WORKFLOW_TYPE, liveEndSignal, liveStreamId } from '../../workflows/contract/live-messages';
import type { agentStreamWorkflow } from '../../workflows/live/live-stream-workflow';
import { waitUntil } from '../../testkit/wait-until';
import { agentTestbed } from '../harness/agent-testbed';
import { uniqueId, withWorker } from '../harness/test-env';

jest.setTimeout(60_000);

const bed = agentTestbed();

test('a stream that starts between the first poll and the next look is followed, not ended', async () => {
  const agentId = uniqueId('agent-race');
  await withWorker(bed.config, async () => {
    const stream = await bed.client.workflow.start<typeof agentStreamWorkflow>(LIVE_STREAM_WORKFLOW_TYPE, {
      taskQueue: bed.config.taskQueue,
      workflowId: liveStreamId(agentId),
      args: [{ agentId }],
    });
    const publisher = createLivePublisher({ client: bed.client, taskQueue: bed.config.taskQueue, batchMs: 20 });
    const call = publisher.open({ agentId, modelCallId: `${agentId}/run/1`, attempt: 1, purpose: 'step' });
    call.started(true);
    call.deltas([{ channel: 'text', text: 'first ' }]);

    // The hub's first poll is told there is no stream: it started just after, as far as the hub knows.
    let polls = 0;
    const racing = new Client({
      connection: bed.client.connection,
      dataConverter: cairnDataConverter(bed.config.payloads),
      interceptors: {
        workflow: [
          {
            startUpdate: (input, next) => {
              polls += 1;
              if (polls === 1)
                throw new WorkflowNotFoundError('workflow not found', input.workflowExecution.workflowId, undefined);
              return next(input);
            },
          },
        ],
      },
    });
    const events: LiveEvent[] = [];
    let ended = false;
    const stop = new LiveHub({ client: racing, retryMs: 100 }).follow(agentId, undefined, {
      event: (event) => events.push(event),
      reset: () => undefined,
      end: () => (ended = true),
    });
    try {
      const text = () => events.flatMap((e) => (e.type === 'delta' ? [String(e.data.text)] : [])).join('');
      await waitUntil('the first delta reached the viewer', () => text() === 'first ');
      expect(ended).toBe(false);
      // The viewer goes on getting what the call says, and the end when the stream ends.
      call.deltas([{ channel: 'text', text: 'second' }]);
      await waitUntil('the second delta reached the viewer', () => text() === 'first second');
      expect(ended).toBe(false);
      await call.finished('completed', { finishReason: 'stop' });
      await stream.signal(liveEndSignal);
      await waitUntil('the stream ended', () => ended);
      expect(events.at(-1)?.type).toBe('end');
      expect(polls).toBeGreaterThan(1);
    } finally {
      stop();
    }
  });
});
