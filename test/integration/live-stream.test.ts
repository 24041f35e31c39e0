/**
 * Live output (docs/contracts.md#live-output), end to end over real parts: the scripted fake
 * streams, the LLM activity publishes deltas to the agent's stream workflow, one subscriber per
 * web server serves `GET /api/agents/:id/stream` to SSE clients over a real socket.
 *
 * - A step's text reaches an SSE client while its model call is still open: the fake holds the
 *   end of the stream until the client has seen a delta (causal, no clock).
 * - A call whose connection is cut mid-stream is retried; the retry supersedes the partial
 *   attempt, so a viewer that drops superseded attempts shows the reply once.
 * - An endpoint that cannot stream: found out once, called without streaming, labelled, and
 *   the agent completes.
 */
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf } from '../harness/agents';
import { plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { testApp } from '../harness/http-app';
import { connectSse, serveOnLoopback, type SseClient, type SseFrame } from '../harness/sse-client';
import { dataOf, deltasOf, shownText, type Delta } from '../harness/live-view';
import { testConfig, withWorker } from '../harness/test-env';
import { LiveHub } from '../../client/live/live-hub';
import { liveStreamId } from '../../workflows/contract/live-messages';
import { waitUntil } from '../../testkit/wait-until';
import { gate } from '../harness/gate';

jest.setTimeout(90_000);

const bed = agentTestbed();

/** Serves the app with a hub that looks for a new stream often, and connects an SSE client to the agent's stream. */
async function watch(agentId: string, headers: Record<string, string> = {}) {
  const app = testApp(bed.client, bed.config.taskQueue, { live: new LiveHub({ client: bed.client, retryMs: 100 }) });
  const served = await serveOnLoopback(app);
  const sse = await connectSse(`${served.url}/api/agents/${encodeURIComponent(agentId)}/stream`, headers);
  return { served, sse };
}

/** The offsets of the frames that have one, in order. */
const offsets = (sse: SseClient) => sse.frames.flatMap((f) => (f.id === undefined ? [] : [Number(f.id)]));

test("a step's streamed text reaches an SSE client before its model call completes; the stream ends in-band", async () => {
  const seen = gate();
  const answer = 'Three apps compared: Obsidian keeps files local, Notion shares, Bear is simplest.';
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      // The step's reply streams, and its end waits until the client has shown part of it.
      'step:s1': [reply.endAfter(reply.text(answer), seen.opened)],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'compare' });
    const { served, sse } = await watch(handle.workflowId);
    try {
      expect(sse.status).toBe(200);
      const first = await sse.waitFor(
        'a text delta of s1',
        (f) => f.event === 'delta' && dataOf<Delta>(f).stepId === 's1',
      );
      // Causal: the call cannot have completed, its stream's end is still held.
      const stepRequest = bed.llm.requestsFor('step')[0];
      expect(stepRequest?.answeredAt).toBeUndefined();
      expect(dataOf<Delta>(first)).toMatchObject({
        agentId: handle.workflowId,
        stepId: 's1',
        attempt: 1,
        purpose: 'step',
        channel: 'text',
      });
      expect(answer.startsWith(dataOf<Delta>(first).text)).toBe(true);
      seen.open();
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      await sse.closed;
      // The whole reply arrived, once, between its call's start and finish; the end came last.
      const s1 = deltasOf(sse.frames).filter((d) => d.stepId === 's1');
      expect(s1.map((d) => d.text).join('')).toBe(answer);
      const events = sse.frames.map((f) => f.event);
      const callId = s1[0]?.modelCallId;
      const ofCall = (type: string) =>
        sse.frames.findIndex((f) => f.event === type && dataOf<Delta>(f).modelCallId === callId);
      expect(ofCall('call.started')).toBeLessThan(ofCall('delta'));
      expect(ofCall('call.finished')).toBeGreaterThan(sse.frames.lastIndexOf(first));
      expect(dataOf<{ outcome: string }>(sse.frames[ofCall('call.finished')] as SseFrame).outcome).toBe('completed');
      expect(events.at(-1)).toBe('end');
      expect(events.filter((e) => e === 'end')).toHaveLength(1);
      const ids = offsets(sse);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      // Every call streamed, and the state says so.
      expect(bed.llm.requests.every((r) => r.streamed)).toBe(true);
      expect((await stateOf(handle)).streaming).toBe(true);
    } finally {
      sse.close();
      await served.close();
    }
    // The stream workflow ended with its agent, told by the agent itself (not by the web server).
    const stream = bed.client.workflow.getHandle(liveStreamId(handle.workflowId));
    await waitUntil('the live stream completed', async () => (await stream.describe()).status.name === 'COMPLETED');
    const told = (await handle.fetchHistory()).events?.flatMap(
      (e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes ?? [],
    );
    expect(told?.map((a) => [a.workflowExecution?.workflowId, a.signalName])).toEqual([
      [liveStreamId(handle.workflowId), 'liveEnd'],
    ]);
    // A viewer who comes after the end is told at once; one resuming from an offset long gone gets a reset first.
    const late = await watch(handle.workflowId, { 'last-event-id': '0' });
    try {
      await late.sse.closed;
      expect(late.sse.frames.map((f) => f.event)).toEqual(['reset', 'end']);
    } finally {
      await late.served.close();
    }
    await recordHistory('agent-live-stream', handle);
    await recordHistory('live-stream', stream);
  });
});

test('a call cut mid-stream is retried, and the retry supersedes its partial text: shown once', async () => {
  const planSeen = gate();
  const answer = 'The report: revenue grew in every quarter, costs fell in two, and margins doubled.';
  bed.llm.respondWith(
    byRoute({
      // Held until the client is following, so it sees every call after the plan from its start.
      plan: [reply.endAfter(planReply(plan([step('s1')])), planSeen.opened)],
      'step:s1': [reply.disconnectAfter(reply.text(answer), 6), reply.text(answer)],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'report' });
    const { served, sse } = await watch(handle.workflowId);
    try {
      await sse.waitFor('a plan delta', (f) => f.event === 'delta' && dataOf<Delta>(f).purpose === 'plan');
      planSeen.open();
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      await sse.closed;
    } finally {
      sse.close();
      await served.close();
    }
    const [cut, retried] = bed.llm.requestsFor('step');
    expect(cut?.disconnected).toBe(true);
    expect(retried?.disconnected).toBeUndefined();
    const s1 = deltasOf(sse.frames).filter((d) => d.stepId === 's1');
    // The viewer saw the partial first attempt, then the retry, under one model call.
    const partial = s1
      .filter((d) => d.attempt === 1)
      .map((d) => d.text)
      .join('');
    expect(partial.length).toBeGreaterThan(0);
    expect(answer.startsWith(partial) && partial !== answer).toBe(true);
    expect(new Set(s1.map((d) => d.modelCallId)).size).toBe(1);
    const superseded = sse.frames.findIndex((f) => f.event === 'call.superseded');
    expect(dataOf(sse.frames[superseded] as SseFrame)).toMatchObject({ stepId: 's1', attempt: 1, by: 2 });
    const firstRetryDelta = sse.frames.findIndex((f) => f.event === 'delta' && dataOf<Delta>(f).attempt === 2);
    expect(superseded).toBeLessThan(firstRetryDelta);
    // Shown as docs/contracts.md says: the superseded attempt dropped, the reply once.
    expect(shownText(sse.frames).get(s1[0]?.modelCallId ?? '')).toBe(answer);
  });
});

describe('an endpoint that cannot stream', () => {
  for (const mode of ['refuse', 'ignore'] as const) {
    test(`(${mode}s stream: true) is found out once, called without streaming, labelled; the agent completes`, async () => {
      const llm = await ScriptedLlm.start({ streaming: mode });
      const config = testConfig(llm);
      try {
        llm.respondWith(
          byRoute({
            plan: [planReply(plan([step('s1'), step('s2', ['s1'])]))],
            'step:s1': [reply.toolCall('finish_step', { result: 'one' })],
            'step:s2': [reply.toolCall('finish_step', { result: 'two' })],
            summary: [reply.text('done')],
          }),
        );
        await withWorker(config, async () => {
          const handle = await startAgent(bed.client, config, { task: 'no streaming' });
          expect(await handle.result()).toMatchObject({ status: 'completed' });
          const state = await stateOf(handle);
          expect(state.streaming).toBe(false);
          expect(state.events.filter((e) => e.type === 'llm.notice').map((e) => e.message)).toEqual([
            expect.stringMatching(/cannot stream/),
          ]);
        });
        // Asked to stream once; every later call went without.
        expect(llm.requests.filter((r) => r.body.stream === true)).toHaveLength(1);
        expect(llm.requests.filter((r) => r.streamed)).toEqual([]);
        expect(llm.requestsFor('summary')).toHaveLength(1);
      } finally {
        await llm.close();
      }
    });
  }
});
