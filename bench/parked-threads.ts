/**
 * Benchmark 8, parked threads (issue 33, acceptance 3): N empty threads (10,000 unless
 * BENCH_PARKED_THREADS says) are opened and left idle; across the idle window (5 minutes unless
 * BENCH_PARKED_IDLE_S says) no thread may have a workflow task — asserted two ways, and a run
 * where one did is an error (the bench exits non-zero):
 *
 * - every thread's history length is the same after the window as before it, none has a
 *   workflow task pending and all still run (a describe of each, a bounded number at a time);
 * - the worker's own count of workflow tasks it polled (the SDK's
 *   `temporal_workflow_task_queue_poll_succeed` on its /metrics) did not move.
 *
 * Meanwhile the worker's resident memory and CPU and the dev server's CPU and memory are
 * sampled (from /proc), against the same figures over a window with no threads at all. Then
 * 100 of the threads, spread over the creation order (so most were evicted from the worker's
 * cache), get a `chat` message at once; per thread, the time from its send to the fake
 * writing the first content chunk of its reply (the fake answers at once), and to the send
 * returning (the reply complete). Target: p95 of the first < 1 s.
 *
 * The worker runs in its own process (bench/parked-worker.ts: `npm run worker`'s entry with the
 * production bundle made beforehand), so its memory is a worker's alone; the fake, the client
 * and the sampling run in this process.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { Client } from '@temporalio/client';
import { ThreadClient } from '../client/thread-client';
import { loadConfig } from '../config/config';
import { payloadEnv } from '../config/payload-config';
import { connectTemporal } from '../temporal/connection';
import { cairnDataConverter } from '../temporal/payloads/data-converter';
import { reply, ScriptedLlm, type ReplyFunction } from '../testkit/fake-llm';
import { freePort } from '../testkit/free-port';
import { startWorkerProcess, type WorkerProcess } from '../testkit/worker-process';
import { budgetEvent } from './budget-events';
import { fixed, median, ms, quantile, since, type BenchEnv } from './common';
import {
  firstTokenTimes,
  histogramTotals,
  mapLimit,
  parkedSize,
  parseSamples,
  residentBytes,
  sampleSum,
  spread,
  wokenThreads,
  type ParkedSize,
  type Sample,
  type ThreadMark,
} from './parked-figures';
import { clockTicksPerSecond, cpuSeconds, sampleCpu, type CpuTicks } from './proc-cpu';
import type { Report } from './report';

const NAME = '8. Parked threads';
/** The worker's entry: npm run worker's, with the bench's prebuilt workflow bundle. */
const WORKER_ENTRY = join(__dirname, 'parked-worker.ts');
/** Starts and describes in flight at once: enough to keep the dev server busy, not to flood it. */
const IN_FLIGHT = 32;
/** How long the idle baseline (the worker and server with no threads) is sampled, at most. */
const BASELINE_MAX_S = 60;
/** How often memory is sampled during a window. */
const RSS_EVERY_MS = 5_000;
const TARGET_P95_MS = 1_000;
/** The worker's time executing each workflow task (Core SDK histogram, seconds). */
const WORKFLOW_TASK_EXECUTION = 'temporal_workflow_task_execution_latency';
/** The worker's count of workflow tasks polled (Core SDK metric). */
const WORKFLOW_TASKS_POLLED = 'temporal_workflow_task_queue_poll_succeed';

/** Every thread's message is chat: one short reply, streamed. */
const script: ReplyFunction = (request) =>
  request.headers['x-cairn-purpose'] === 'chat' ? reply.text('Hello again — what shall we do next?') : undefined;

/** What a window measured: CPU of each process as % of one core, memory at its peak and end. */
interface Window {
  seconds: number;
  workerCpuPct: number;
  serverCpuPct: number;
  workerRss: { peak: number; end: number };
  serverRss: { peak: number; end: number };
}

const rssOf = (pid: number) => residentBytes(readFileSync(`/proc/${pid}/status`, 'utf8'));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Samples CPU over `seconds` of doing nothing and memory every few seconds. */
async function idleWindow(workerPid: number, serverPid: number, seconds: number): Promise<Window> {
  const ticks = clockTicksPerSecond();
  const start: [CpuTicks, CpuTicks] = [sampleCpu(workerPid), sampleCpu(serverPid)];
  const began = performance.now();
  const workerRss = { peak: rssOf(workerPid), end: 0 };
  const serverRss = { peak: rssOf(serverPid), end: 0 };
  while (since(began) < seconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(RSS_EVERY_MS, seconds * 1000 - since(began))));
    workerRss.end = rssOf(workerPid);
    serverRss.end = rssOf(serverPid);
    workerRss.peak = Math.max(workerRss.peak, workerRss.end);
    serverRss.peak = Math.max(serverRss.peak, serverRss.end);
  }
  const elapsed = since(began) / 1000;
  const pct = (before: CpuTicks, pid: number) => (100 * cpuSeconds(before, sampleCpu(pid), ticks)) / elapsed;
  return {
    seconds: elapsed,
    workerCpuPct: pct(start[0], workerPid),
    serverCpuPct: pct(start[1], serverPid),
    workerRss,
    serverRss,
  };
}

async function scrape(address: string): Promise<Sample[]> {
  const response = await fetch(`http://${address}/metrics`);
  if (!response.ok) throw new Error(`the worker's /metrics answered ${response.status}`);
  return parseSamples(await response.text());
}

/** Each thread as a describe shows it, `IN_FLIGHT` at a time. */
async function describeAll(client: Client, ids: readonly string[]): Promise<Map<string, ThreadMark>> {
  const marks = await mapLimit(ids, IN_FLIGHT, async (id) => {
    const d = await client.workflow.getHandle(id).describe();
    const mark: ThreadMark = {
      historyLength: d.historyLength,
      pendingTask: d.raw.pendingWorkflowTask != null,
      status: d.status.name,
    };
    return [id, mark] as const;
  });
  return new Map(marks);
}

/** Describes until every thread has had its first workflow task and waits on its idle timer (re-describing only those that had not). */
async function settled(client: Client, ids: readonly string[], timeoutMs: number): Promise<Map<string, ThreadMark>> {
  const deadline = Date.now() + timeoutMs;
  const marks = new Map<string, ThreadMark>();
  let busy = [...ids];
  for (;;) {
    for (const [id, mark] of await describeAll(client, busy)) marks.set(id, mark);
    busy = busy.filter((id) => {
      const m = marks.get(id);
      return !m || m.pendingTask || m.historyLength < 4 || m.status !== 'RUNNING';
    });
    if (busy.length === 0) return marks;
    if (Date.now() > deadline) throw new Error(`${busy.length} thread(s) never settled, e.g. ${busy[0]}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** The events of `id` from event `from` on (1-based), each as `TYPE +ms` after `zero` (`Date.now()`). */
async function eventsAfter(client: Client, id: string, from: number, zero?: number): Promise<string> {
  const history = await client.workflow.getHandle(id).fetchHistory();
  const events = (history.events ?? []).map(budgetEvent).filter((e) => e.eventId >= from);
  const short = (type: string) => type.replace(/^EVENT_TYPE_/, '');
  return events.map((e) => (zero === undefined ? short(e.type) : `${short(e.type)} +${e.time - zero}`)).join(', ');
}

export async function parkedThreads(env: BenchEnv, report: Report): Promise<void> {
  const size: ParkedSize = parkedSize(process.env);
  const n = size.threads.toLocaleString('en');
  const load = loadavg()[0] ?? 0;
  const llm = await ScriptedLlm.start({ latencyMs: 0 });
  llm.respondWith(script);
  const metrics = `127.0.0.1:${await freePort()}`;
  const workerEnv = {
    TEMPORAL_ADDRESS: env.address,
    CAIRN_TASK_QUEUE: `bench-parked-${randomUUID().slice(0, 8)}`,
    OPENAI_BASE_URL: llm.baseUrl,
    CAIRN_MODEL: 'scripted-model',
    CAIRN_WORKSPACE: env.workspace,
    CAIRN_LLM_CONCURRENCY: '200',
    CAIRN_METRICS_ADDRESS: metrics,
    // The level gauges read visibility for agents (none here): not during the windows.
    CAIRN_METRICS_POLL_MS: String(24 * 3_600_000),
    ...payloadEnv(process.env),
  };
  const config = loadConfig(workerEnv);
  const connection = await connectTemporal({ address: env.address });
  let worker: WorkerProcess | undefined;
  try {
    const bundle = join(env.workspace, '..', 'parked-workflow-bundle.js');
    writeFileSync(bundle, env.workflowCode);
    worker = await startWorkerProcess({ ...workerEnv, BENCH_WORKFLOW_BUNDLE: bundle }, 300_000, WORKER_ENTRY);
    const workerPid = worker.process.pid;
    if (workerPid === undefined) throw new Error('the worker has no process id');
    const client = new Client({ connection, dataConverter: cairnDataConverter(config.payloads) });
    const threads = new ThreadClient(client, config.taskQueue);

    const baseline = await idleWindow(workerPid, env.serverPid, Math.min(BASELINE_MAX_S, size.idleSeconds));

    const opening = performance.now();
    const openingCpu = [sampleCpu(workerPid), sampleCpu(env.serverPid)] as const;
    const ids = await mapLimit(
      Array.from({ length: size.threads }),
      IN_FLIGHT,
      async () =>
        (await threads.open({}, size.idleTimeoutMs ? { settings: { idleTimeoutMs: size.idleTimeoutMs } } : {})).id,
    );
    const openMs = since(opening);
    const before = await settled(client, ids, 1_200_000);
    const settleMs = since(opening) - openMs;
    const ticks = clockTicksPerSecond();
    const openCpuMs = [
      (1000 * cpuSeconds(openingCpu[0], sampleCpu(workerPid), ticks)) / size.threads,
      (1000 * cpuSeconds(openingCpu[1], sampleCpu(env.serverPid), ticks)) / size.threads,
    ];

    const tasksBefore = sampleSum(await scrape(metrics), WORKFLOW_TASKS_POLLED);
    // Each thread's first workflow task was polled: a count below that means the counter is not there.
    if (tasksBefore < size.threads)
      throw new Error(`the worker's ${WORKFLOW_TASKS_POLLED} is ${tasksBefore} after ${n} threads started`);
    const idle = await idleWindow(workerPid, env.serverPid, size.idleSeconds);
    const samplesAfter = await scrape(metrics);
    const tasksDuring = sampleSum(samplesAfter, WORKFLOW_TASKS_POLLED) - tasksBefore;
    const after = await describeAll(client, ids);
    const woken = wokenThreads(before, after);

    const add = (figure: string, measured: string, target?: { text: string; met: boolean }) =>
      report.add(
        target
          ? { benchmark: NAME, figure, measured, target: target.text, met: target.met }
          : { benchmark: NAME, figure, measured },
      );
    add(`${n} empty threads opened (${IN_FLIGHT} at a time) / all settled idle`, `${ms(openMs)} / +${ms(settleMs)}`);
    add(
      'CPU per thread opened until settled: worker / dev server',
      `${fixed(openCpuMs[0] ?? Number.NaN, 1)} ms / ${fixed(openCpuMs[1] ?? Number.NaN, 1)} ms`,
    );
    add(
      `threads with any workflow task in ${size.idleSeconds} s idle (history length, pending task, status)`,
      String(woken.length),
      { text: '0', met: woken.length === 0 },
    );
    add(`workflow tasks the worker polled in ${size.idleSeconds} s idle (its SDK metric)`, String(tasksDuring), {
      text: '0',
      met: tasksDuring === 0,
    });
    add(
      `worker RSS: no threads / ${n} parked (end, peak)`,
      `${mib(baseline.workerRss.end)} / ${mib(idle.workerRss.end)}, ${mib(idle.workerRss.peak)}`,
    );
    add(
      `worker cached workflows (SDK sticky cache) while parked`,
      String(sampleSum(samplesAfter, 'temporal_sticky_cache_size')),
    );
    add(
      `worker CPU, % of one core: no threads / ${n} parked`,
      `${fixed(baseline.workerCpuPct)} / ${fixed(idle.workerCpuPct)}`,
    );
    add(
      `dev server CPU, % of one core: no threads / ${n} parked`,
      `${fixed(baseline.serverCpuPct)} / ${fixed(idle.serverCpuPct)}`,
    );
    add(
      `dev server RSS: no threads / ${n} parked (end)`,
      `${mib(baseline.serverRss.end)} / ${mib(idle.serverRss.end)}`,
    );

    // One message to each of `messaged` threads, all at once.
    const chosen = spread(ids, size.messaged);
    const sentAt = new Map<string, number>();
    const burstStart = { metrics: await scrape(metrics), cpu: sampleCpu(workerPid) };
    const answered: number[] = [];
    const failures: string[] = [];
    await Promise.all(
      chosen.map(async (id) => {
        const sent = Date.now();
        sentAt.set(id, sent);
        try {
          const result = await threads.send(id, { text: 'Are you still there?', kind: 'chat' });
          if (result.disposition !== 'answered') failures.push(`${id}: ${result.disposition}`);
          answered.push(Date.now() - sent);
        } catch (err) {
          failures.push(`${id}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
    );
    const burstCpu = cpuSeconds(burstStart.cpu, sampleCpu(workerPid), ticks);
    const burstMetrics = await scrape(metrics);
    const taskTimes = [burstStart.metrics, burstMetrics].map((m) => histogramTotals(m, WORKFLOW_TASK_EXECUTION));
    const burstTasks = (taskTimes[1]?.count ?? 0) - (taskTimes[0]?.count ?? 0);
    const burstTaskSeconds = (taskTimes[1]?.sum ?? 0) - (taskTimes[0]?.sum ?? 0);
    const { firstToken, arrived, missing } = firstTokenTimes(sentAt, llm.requests);
    const first = [...firstToken.values()];
    const reached = [...arrived.values()];
    const p95 = quantile(first, 0.95);
    add(
      `${chosen.length} threads messaged at once: send → first reply token written by the fake, p50 / p95`,
      `${ms(median(first))} / ${ms(p95)}`,
      { text: `p95 < ${ms(TARGET_P95_MS)}`, met: first.length === chosen.length && p95 < TARGET_P95_MS },
    );
    add(
      `${chosen.length} threads messaged at once: send → chat request reached the fake, p50 / p95`,
      `${ms(median(reached))} / ${ms(quantile(reached, 0.95))}`,
    );
    add(
      `${chosen.length} threads messaged at once: send → reply complete (send returned), p50 / p95`,
      `${ms(median(answered))} / ${ms(quantile(answered, 0.95))}`,
    );

    add(
      `${chosen.length} threads messaged at once: workflow tasks / their mean execution time (SDK) / worker CPU (tasks and LLM activities) ÷ tasks`,
      `${burstTasks} / ${ms((1000 * burstTaskSeconds) / burstTasks)} / ${ms((1000 * burstCpu) / burstTasks)}`,
    );
    // Where the time of a typical message goes: the thread's events since the send, in ms after it.
    const typical = [...firstToken].sort((a, b) => a[1] - b[1])[Math.floor(firstToken.size / 2)];
    const typicalMark = typical && before.get(typical[0]);
    if (typical && typicalMark) {
      const timeline = await eventsAfter(client, typical[0], typicalMark.historyLength + 1, sentAt.get(typical[0]));
      report.note(
        `${NAME}: the median thread's message (first token at ${ms(typical[1])}, its chat request at ` +
          `${ms(arrived.get(typical[0]) ?? Number.NaN)}): its events after the send, ms after it: ${timeline}.`,
      );
    }
    if (size.idleTimeoutMs)
      report.note(
        `${NAME}: the threads' idle timeout was set to ${ms(size.idleTimeoutMs)} (BENCH_PARKED_IDLE_TIMEOUT_MS).`,
      );
    report.note(
      `${NAME}: ${n} threads opened empty through the client library (ThreadClient.open), ${IN_FLIGHT} at a time, ` +
        `each settled (first workflow task done, waiting on its idle timer) before the ${size.idleSeconds} s idle window. ` +
        `"No workflow task" is asserted twice: a describe of every thread before and after the window ` +
        `(history length unchanged, no workflow task pending, still running) and the worker's own ` +
        `${WORKFLOW_TASKS_POLLED} counter unchanged across it. The worker runs alone in its own process (npm run worker's ` +
        `entry with the workflow bundle prebuilt, as a production build runs); RSS from /proc/<pid>/status, CPU from /proc/<pid>/stat over the window (the describes lie ` +
        `outside it); "no threads" is the same worker and server for ${fixed(baseline.seconds, 0)} s before any ` +
        `thread was opened. Messages: ${chosen.length} threads spread evenly over the creation order, kind chat, ` +
        `sent at once through ThreadClient.send (a describe, then the send update); the first token is the fake's ` +
        `own timestamp of the first content chunk of that thread's chat reply, the fake answering with no delay. ` +
        `Load average (1 min) ${fixed(load)} before, ${fixed(loadavg()[0] ?? 0)} after (2 CPUs shared with other work).`,
    );
    if (woken.length > 0) {
      const shown = await Promise.all(
        woken.slice(0, 3).map(async (w) => {
          const events = w.before ? await eventsAfter(client, w.id, w.before.historyLength + 1) : '';
          return `${w.id} (${JSON.stringify(w.before)} → ${JSON.stringify(w.after)}; added: ${events || 'none'})`;
        }),
      );
      report.error(NAME, `${woken.length} thread(s) had a workflow task while idle, e.g. ${shown.join('; ')}`);
    }
    if (tasksDuring !== 0)
      report.error(NAME, `the worker polled ${tasksDuring} workflow task(s) while every thread idled`);
    if (missing.length > 0 || failures.length > 0)
      report.error(
        NAME,
        `${missing.length} messaged thread(s) got no chat reply from the fake, ${failures.length} send(s) failed: ` +
          [...failures, ...missing].slice(0, 3).join('; '),
      );
    if (llm.unscripted.length > 0) report.error(NAME, `${llm.unscripted.length} unscripted model request(s)`);
  } finally {
    await worker?.kill('SIGTERM');
    await connection.close();
    await llm.close();
  }
}
