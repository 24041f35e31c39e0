/**
 * Live output across a worker's death, Cairn as processes: a worker process and a web server
 * process (`npm run web`'s entry), the scripted fake in the test. A step's model call streams
 * its first attempt to an SSE client of the web server; the fake holds that stream's end, so
 * the SIGKILL surely lands mid-stream. A new worker retries the call (the dead one's heartbeats
 * stop), the retry supersedes the partial attempt, and a client applying the documented rule
 * (drop a superseded attempt's text) ends with exactly the retry's text — never both; the
 * step's transcript holds the retry's reply alone.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { plan, planReply, step } from '../harness/plans';
import { dataOf, deltasOf, shownText } from '../harness/live-view';
import { runInfo } from '../harness/run-info';
import { connectSse, type SseClient } from '../harness/sse-client';
import { uniqueId } from '../harness/test-env';
import { startWebProcess, type WebProcess } from '../../testkit/web-process';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const bed = agentTestbed();
let workers: WorkerProcess[] = [];
let web: WebProcess | undefined;
let sse: SseClient | undefined;

afterEach(async () => {
  sse?.close();
  await Promise.all([...workers.map((w) => w.kill('SIGKILL')), web?.kill('SIGKILL')]);
  workers = [];
  web = undefined;
});

test('SIGKILL mid-stream: the retried call replaces the partial text over the API, shown once', async () => {
  const env = {
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: uniqueId('live-kill-queue'),
    OPENAI_BASE_URL: bed.llm.baseUrl,
    CAIRN_MODEL: 'scripted-model',
    CAIRN_WORKSPACE: mkdtempSync(join(tmpdir(), 'live-kill-')),
  };
  // The first attempt's text differs from the retry's, so the test can tell which one a viewer shows.
  const partial = 'Draft: the quarterly numbers look weak, but before I conclude let me re-check the';
  const retried = 'Final: revenue grew in every quarter and the margins doubled over the year.';
  let releaseDead = () => {};
  const deadEnd = new Promise<void>((resolve) => (releaseDead = resolve));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      // Attempt 1 streams its text and holds its end until the worker is dead; attempt 2 completes.
      'step:s1': [reply.endAfter(reply.text(partial), deadEnd), reply.text(retried)],
      summary: [reply.text('done')],
    }),
  );
  workers.push(await startWorkerProcess(env));
  web = await startWebProcess({ TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS, CAIRN_TASK_QUEUE: env.CAIRN_TASK_QUEUE });

  const created = await fetch(`${web.url}/api/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ task: 'report on the quarter' }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  sse = await connectSse(`${web.url}/api/agents/${encodeURIComponent(id)}/stream`);
  expect(sse.status).toBe(200);
  const client = sse;

  // The first attempt's text reached the client while its call is open (its end is held).
  await client.waitFor(
    "the first attempt's last text",
    () =>
      deltasOf(client.frames)
        .filter((d) => d.stepId === 's1' && d.attempt === 1)
        .map((d) => d.text)
        .join('') === partial,
    60_000,
  );
  expect(bed.llm.requestsFor('step')[0]?.answeredAt).toBeUndefined();
  await workers[0]?.kill('SIGKILL');
  releaseDead(); // the fake may now end that reply: its client is gone
  workers.push(await startWorkerProcess(env));

  // The new worker retries the call once the dead one's heartbeats stop; the agent completes.
  await client.waitFor('the end of the stream', (f) => f.event === 'end', 110_000);
  await client.closed;
  const agent = bed.client.workflow.getHandle(id);
  expect(await agent.result()).toMatchObject({ status: 'completed' });
  const [first, second] = bed.llm.requestsFor('step');
  expect(first?.answeredAt).toBeUndefined(); // its stream never ended: the kill landed mid-stream
  expect(second?.answeredAt).toBeDefined();

  const s1 = deltasOf(client.frames).filter((d) => d.stepId === 's1');
  const callId = s1[0]?.modelCallId ?? '';
  expect(new Set(s1.map((d) => d.modelCallId))).toEqual(new Set([callId]));
  const textOf = (attempt: number) =>
    s1
      .filter((d) => d.attempt === attempt)
      .map((d) => d.text)
      .join('');
  // The raw stream: the partial attempt, its supersession by attempt 2, then the retry's text once.
  expect(textOf(1)).toBe(partial);
  expect(textOf(2)).toBe(retried);
  expect(new Set(s1.map((d) => d.attempt))).toEqual(new Set([1, 2]));
  const superseded = client.frames.filter((f) => f.event === 'call.superseded');
  expect(superseded.map((f) => dataOf(f))).toEqual([
    expect.objectContaining({ modelCallId: callId, stepId: 's1', attempt: 1, by: 2 }),
  ]);
  const at = client.frames.indexOf(superseded[0] ?? client.frames[0]!);
  const firstRetry = client.frames.findIndex(
    (f) => f.event === 'delta' && dataOf<{ attempt: number }>(f).attempt === 2,
  );
  expect(at).toBeLessThan(firstRetry);
  // Attempt 1 never finished on its own: it was superseded, not completed.
  const finished = client.frames
    .filter((f) => f.event === 'call.finished')
    .map((f) => dataOf<{ modelCallId: string; attempt: number; outcome: string }>(f))
    .filter((f) => f.modelCallId === callId);
  expect(finished).toEqual([expect.objectContaining({ attempt: 2, outcome: 'completed' })]);
  // A viewer that drops superseded attempts shows exactly the retry's text.
  expect(shownText(client.frames).get(callId)).toBe(retried);
  // The step's transcript holds the retried reply alone: the partial attempt never became a round.
  const transcript = await fetch(`${web.url}/api/agents/${encodeURIComponent(id)}/steps/s1/transcript`);
  expect(transcript.status).toBe(200);
  const { rounds } = (await transcript.json()) as { rounds: { round: number; text?: string }[] };
  expect(rounds.map((r) => [r.round, r.text])).toEqual([[1, retried]]);
}, 180_000);
