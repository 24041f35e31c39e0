/**
 * Fifty SSE clients on one agent waiting for an answer (docs/contracts.md#live-output): the
 * web server holds one subscription to the agent's stream workflow whatever the number of
 * clients, the agent's `answer` update goes through while they watch, and the stream's long
 * polls land on the stream workflow — never on the agent, whose updates are limited to 10 in
 * flight and 2,000 a run — which continues as new on its own after `pollsPerRun` polls (a test
 * setting here; POLLS_PER_RUN in production), so no run nears the 2,000-update limit.
 *
 * What one subscription means is read from the stream workflow's own histories (every run):
 * each `livePoll` update names its subscriber, and at most one is in flight at any time. The
 * CPU of this process (worker, web server and clients) with 50 clients against 1 is printed,
 * not asserted.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { LiveHub } from '../../client/live/live-hub';
import { decompressPayload } from '../../temporal/payloads/compression-codec';
import { LIVE_STREAM_WORKFLOW_TYPE, liveStreamId, type LivePoll } from '../../workflows/contract/live-messages';
import { POLLS_PER_RUN, type agentStreamWorkflow } from '../../workflows/live/live-stream-workflow';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { waitForInteraction, type AgentHandle } from '../harness/agents';
import { plan, planReply, step } from '../harness/plans';
import { testApp } from '../harness/http-app';
import { deltasOf } from '../harness/live-view';
import { connectSse, serveOnLoopback, type SseClient } from '../harness/sse-client';
import { uniqueId, withWorker } from '../harness/test-env';

jest.setTimeout(120_000);

const bed = agentTestbed();

const CLIENTS = 50;
/** Polls a stream run takes here before it continues as new: a few runs within the test. */
const POLLS_PER_TEST_RUN = 3;
/** The server's limit on updates per workflow run. */
const UPDATES_PER_RUN_LIMIT = 2_000;
/** How long each CPU sample lasts (ms): the agent waits, the clients watch. */
const CPU_WINDOW_MS = 5_000;

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Every run's history of a workflow id, oldest first. */
async function historiesOf(workflowId: string): Promise<HistoryEvent[][]> {
  const runs: { started: number; runId: string }[] = [];
  for await (const run of bed.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
    runs.push({ started: run.startTime.getTime(), runId: run.runId });
  runs.sort((a, b) => a.started - b.started);
  return Promise.all(
    runs.map(async ({ runId }) => (await bed.client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? []),
  );
}

/** The updates a run's history accepted, by name, with their argument, and the most in flight at once. */
function updatesOf(events: HistoryEvent[]): { name: string; arg: unknown }[] & { maxInFlight: number } {
  const accepted: { name: string; arg: unknown }[] = [];
  const open = new Set<string>();
  let maxInFlight = 0;
  for (const event of events) {
    const acceptedAttrs = event.workflowExecutionUpdateAcceptedEventAttributes;
    if (acceptedAttrs) {
      const input = acceptedAttrs.acceptedRequest?.input;
      const payload = input?.args?.payloads?.[0];
      accepted.push({
        name: input?.name ?? '',
        arg: payload ? defaultPayloadConverter.fromPayload(decompressPayload(payload)) : undefined,
      });
      open.add(acceptedAttrs.protocolInstanceId ?? '');
      maxInFlight = Math.max(maxInFlight, open.size);
    }
    const completed = event.workflowExecutionUpdateCompletedEventAttributes;
    if (completed) open.delete(completed.meta?.updateId ?? '');
  }
  return Object.assign(accepted, { maxInFlight });
}

/** CPU milliseconds this process spends in `ms` of wall time. */
async function cpuOver(ms: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

test(`${CLIENTS} SSE clients on a waiting agent: one subscription, the answer goes through, polls roll over on the stream`, async () => {
  const s1Text = 'The comparison: Obsidian keeps files local, Notion shares, Bear is the simplest.';
  // A finished call's items go once its subscribers have read them: the plan's end waits for the first client.
  let firstFollows = () => {};
  const followed = new Promise<void>((resolve) => (firstFollows = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [reply.endAfter(planReply(plan([step('s1')])), followed)],
      'step:s1': [reply.text(s1Text)],
      summary: [reply.text('done')],
    }),
  );
  const agentId = uniqueId('agent-watched');
  const clients: SseClient[] = [];
  const hub = new LiveHub({ client: bed.client, subscriberId: 'web-one', retryMs: 100 });
  const app = testApp(bed.client, bed.config.taskQueue, {
    live: hub,
    streamLimits: { perPrincipal: CLIENTS, total: CLIENTS },
  });
  const served = await serveOnLoopback(app);
  const url = `${served.url}/api/agents/${encodeURIComponent(agentId)}/stream`;
  try {
    await withWorker(bed.config, async () => {
      // The stream starts first, rolling over every few polls; the agent's first batch then signals it.
      await bed.client.workflow.start<typeof agentStreamWorkflow>(LIVE_STREAM_WORKFLOW_TYPE, {
        taskQueue: bed.config.taskQueue,
        workflowId: liveStreamId(agentId),
        args: [{ agentId, pollsPerRun: POLLS_PER_TEST_RUN }],
      });
      const handle: AgentHandle = await bed.client.workflow.start('agentWorkflow', {
        taskQueue: bed.config.taskQueue,
        workflowId: agentId,
        args: [{ task: 'compare three note apps', mode: { confirmPlan: true } }],
      });
      // One client follows the plan's call, then the agent waits at its plan check.
      const first = await connectSse(url);
      clients.push(first);
      await first.waitFor('a plan delta', (f) => f.event === 'delta' && f.data.includes('"purpose":"plan"'));
      firstFollows();
      const check = await waitForInteraction(handle, 'plan.check');
      await first.waitFor('the plan call finished', (f) => f.event === 'call.finished');
      const cpuOne = await cpuOver(CPU_WINDOW_MS);
      // Then 49 more, on the same subscription.
      while (clients.length < CLIENTS) clients.push(await connectSse(url));
      expect(clients.map((c) => c.status)).toEqual(clients.map(() => 200));
      expect(hub.subscriptions).toBe(1);
      // The stream limit was configured for exactly these clients: one more is refused.
      const extra = await fetch(url);
      expect(extra.status).toBe(429);
      expect(((await extra.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_STREAMS');
      const cpuMany = await cpuOver(CPU_WINDOW_MS);

      // The answer — an update on the agent — goes through while 50 clients watch.
      const answered = await fetch(`${served.url}/api/agents/${encodeURIComponent(agentId)}/answers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ interactionId: check.id, answer: { decision: 'confirm' } }),
      });
      expect(answered.status).toBe(200);
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      await Promise.all(clients.map((c) => c.closed));
      for (const sse of clients) {
        const s1 = deltasOf(sse.frames).filter((d) => d.stepId === 's1' && d.channel === 'text');
        expect(s1.map((d) => d.text).join('')).toBe(s1Text);
        expect(sse.frames.at(-1)?.event).toBe('end');
      }
      process.stdout.write(
        `\n[live viewers] CPU of worker + web server + clients (one process) while the agent waits, ` +
          `${CPU_WINDOW_MS} ms each: 1 client ${cpuOne.toFixed(0)} ms, ${CLIENTS} clients ${cpuMany.toFixed(0)} ms\n`,
      );
    });

    // The stream's polls: all from the one subscriber, never two in flight, and each run rolled
    // over after at most POLLS_PER_TEST_RUN of them.
    const runs = (await historiesOf(liveStreamId(agentId))).map(updatesOf);
    expect(runs.length).toBeGreaterThan(1);
    const polls = runs.flat();
    expect(new Set(polls.map((u) => u.name))).toEqual(new Set(['livePoll']));
    expect(new Set(polls.map((u) => (u.arg as LivePoll).subscriber))).toEqual(new Set(['web-one']));
    for (const run of runs) {
      expect(run.maxInFlight).toBe(1);
      expect(run.length).toBeLessThanOrEqual(POLLS_PER_TEST_RUN);
    }
    // The agent took one update, the answer; none of the stream's polls.
    const agentUpdates = (await historiesOf(agentId)).flatMap(updatesOf);
    expect(agentUpdates.map((u) => u.name)).toEqual(['answer']);
    // In production a run rolls over well before the server's limit on updates.
    expect(POLLS_PER_RUN).toBeLessThan(UPDATES_PER_RUN_LIMIT);
  } finally {
    for (const sse of clients) sse.close();
    await served.close();
  }
});
