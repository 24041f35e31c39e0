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
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { Client } from '@temporalio/client';
import { ThreadClient } from '../client/threads/thread-client';
import { loadConfig } from '../config/config';
import { payloadEnv } from '../config/payload-config';
import { connectTemporal } from '../temporal/connection';
import { cairnDataConverter } from '../temporal/payloads/data-converter';
import { reply, ScriptedLlm, type ReplyFunction } from '../testkit/fake-llm';
import { freePort } from '../testkit/free-port';
import { startWorkerProcess, type WorkerProcess } from '../testkit/worker-process';
import { fixed, ms, since, type BenchEnv } from './common';
import {
  mapLimit,
  parkedSize,
  sampleSum,
  spread,
  wokenThreads,
  type ParkedSize,
  type ThreadMark,
  type Woken,
} from './parked-figures';
import { clockTicksPerSecond, cpuSeconds, sampleCpu, type CpuTicks } from './proc-cpu';
import { messageBurst, reportBurstErrors } from './parked-burst';
import { describeAll, eventsAfter, idleWindow, IN_FLIGHT, mib, scrape, settled, type Window } from './parked-probes';
import type { Report } from './report';

const NAME = '8. Parked threads';
/** The worker's entry: npm run worker's, with the bench's prebuilt workflow bundle. */
const WORKER_ENTRY = join(__dirname, 'parked-worker.ts');
/** How long the idle baseline (the worker and server with no threads) is sampled, at most. */
const BASELINE_MAX_S = 60;
/** How long opened threads may take to settle: 10,000 first workflow tasks ran at ~20 a second on a shared 2-core machine. */
const SETTLE_TIMEOUT_MS = 1_200_000;
/** The worker's count of workflow tasks polled (Core SDK metric). */
const WORKFLOW_TASKS_POLLED = 'temporal_workflow_task_queue_poll_succeed';

/** Every thread's message is chat: one short reply, streamed (a new thread's title: the fake's own). */
const script: ReplyFunction = (request) =>
  request.headers['x-cairn-purpose'] === 'chat' ? reply.text('Hello again — what shall we do next?') : undefined;

/** What parking measured: the windows, the timing and CPU of opening, and what woke. */
interface Parked {
  ids: string[];
  before: Map<string, ThreadMark>;
  baseline: Window;
  idle: Window;
  openMs: number;
  settleMs: number;
  /** CPU ms per thread opened until settled: worker, dev server. */
  openCpuMs: [number, number];
  woken: Woken[];
  /** Workflow tasks the worker polled during the idle window. */
  tasksDuring: number;
  cachedWorkflows: number;
}

/** The worker, its pid and metrics address, and a client of its threads. */
interface Running {
  client: Client;
  threads: ThreadClient;
  workerPid: number;
  serverPid: number;
  metrics: string;
}

/** A window with no threads, then `size.threads` opened and settled, then the idle window and its checks. */
async function park(r: Running, size: ParkedSize): Promise<Parked> {
  const { client, threads, workerPid, serverPid, metrics } = r;
  const baseline = await idleWindow(workerPid, serverPid, Math.min(BASELINE_MAX_S, size.idleSeconds));
  const opening = performance.now();
  const openingCpu = [sampleCpu(workerPid), sampleCpu(serverPid)] as const;
  const settings = size.idleTimeoutMs ? { settings: { idleTimeoutMs: size.idleTimeoutMs } } : {};
  // A parked conversation has had one exchange: answered, titled, its live stream started.
  const first = size.conversations ? { text: 'Hello there', kind: 'chat' as const } : {};
  const ids = await mapLimit(Array.from({ length: size.threads }), IN_FLIGHT, async () => {
    return (await threads.open(first, settings)).id;
  });
  const openMs = since(opening);
  const before = await settled(client, ids, SETTLE_TIMEOUT_MS);
  const settleMs = since(opening) - openMs;
  const ticks = clockTicksPerSecond();
  const perThread = (from: CpuTicks, pid: number) => (1000 * cpuSeconds(from, sampleCpu(pid), ticks)) / ids.length;
  const openCpuMs: [number, number] = [perThread(openingCpu[0], workerPid), perThread(openingCpu[1], serverPid)];

  const tasksBefore = sampleSum(await scrape(metrics), WORKFLOW_TASKS_POLLED);
  // Each thread's first workflow task was polled: a count below that means the counter is not there.
  if (tasksBefore < size.threads)
    throw new Error(`the worker's ${WORKFLOW_TASKS_POLLED} is ${tasksBefore} after ${size.threads} threads started`);
  const idle = await idleWindow(workerPid, serverPid, size.idleSeconds);
  const samplesAfter = await scrape(metrics);
  const tasksDuring = sampleSum(samplesAfter, WORKFLOW_TASKS_POLLED) - tasksBefore;
  const woken = wokenThreads(before, await describeAll(client, ids));
  const cachedWorkflows = sampleSum(samplesAfter, 'temporal_sticky_cache_size');
  return { ids, before, baseline, idle, openMs, settleMs, openCpuMs, woken, tasksDuring, cachedWorkflows };
}

/** The figures of parking, each check's verdict among them. */
function reportParked(report: Report, size: ParkedSize, p: Parked): void {
  const n = size.threads.toLocaleString('en');
  const add = (figure: string, measured: string, target?: { text: string; met: boolean }) =>
    report.add(
      target
        ? { benchmark: NAME, figure, measured, target: target.text, met: target.met }
        : { benchmark: NAME, figure, measured },
    );
  const { baseline, idle } = p;
  const what = size.conversations ? 'threads opened with one chat exchange each' : 'empty threads opened';
  add(`${n} ${what} (${IN_FLIGHT} at a time) / all settled idle`, `${ms(p.openMs)} / +${ms(p.settleMs)}`);
  add(
    'CPU per thread opened until settled: worker / dev server',
    `${fixed(p.openCpuMs[0], 1)} ms / ${fixed(p.openCpuMs[1], 1)} ms`,
  );
  add(
    `threads with any workflow task in ${size.idleSeconds} s idle (history length, pending task, status)`,
    String(p.woken.length),
    { text: '0', met: p.woken.length === 0 },
  );
  add(`workflow tasks the worker polled in ${size.idleSeconds} s idle (its SDK metric)`, String(p.tasksDuring), {
    text: '0',
    met: p.tasksDuring === 0,
  });
  add(
    `worker RSS: no threads / ${n} parked (end, peak)`,
    `${mib(baseline.workerRss.end)} / ${mib(idle.workerRss.end)}, ${mib(idle.workerRss.peak)}`,
  );
  add('worker cached workflows (SDK sticky cache) while parked', String(p.cachedWorkflows));
  add(
    `worker CPU, % of one core: no threads / ${n} parked`,
    `${fixed(baseline.workerCpuPct)} / ${fixed(idle.workerCpuPct)}`,
  );
  add(
    `dev server CPU, % of one core: no threads / ${n} parked`,
    `${fixed(baseline.serverCpuPct)} / ${fixed(idle.serverCpuPct)}`,
  );
  add(`dev server RSS: no threads / ${n} parked (end)`, `${mib(baseline.serverRss.end)} / ${mib(idle.serverRss.end)}`);
}

/** How the figures were measured, for the notes. */
function method(size: ParkedSize, baselineSeconds: number, load: number): string {
  return (
    `${NAME}: ${size.threads.toLocaleString('en')} threads opened ` +
    (size.conversations ? 'with a first chat message each (answered, titled, its live stream started) ' : 'empty ') +
    `through the client library (ThreadClient.open), ${IN_FLIGHT} at a time, each settled (no workflow task or ` +
    `activity pending, waiting on its idle timer) before the ${size.idleSeconds} s idle window. "No workflow task" is asserted twice: a describe of every ` +
    `thread before and after the window (history length unchanged, no workflow task pending, still running) and ` +
    `the worker's own ${WORKFLOW_TASKS_POLLED} counter unchanged across it. The worker runs alone in its own ` +
    `process (npm run worker's entry with the workflow bundle prebuilt, as a production build runs); RSS from ` +
    `/proc/<pid>/status, CPU from /proc/<pid>/stat over the window (the describes lie outside it); "no threads" is ` +
    `the same worker and server for ${fixed(baselineSeconds, 0)} s before any thread was opened. Messages: ` +
    `${size.messaged} threads spread evenly over the creation order, kind chat, sent at once through ` +
    `ThreadClient.send (the client opened them, so the send update goes straight to each — no describe first); the first token is the fake's own timestamp of the ` +
    `first content chunk of that thread's chat reply, the fake answering with no delay. Load average (1 min) ` +
    `${fixed(load)} before, ${fixed(loadavg()[0] ?? 0)} after (2 CPUs shared with other work).`
  );
}

/** Errors for every thread that woke, with the events it added (the first three). */
async function reportWoken(report: Report, client: Client, p: Parked): Promise<void> {
  if (p.woken.length > 0) {
    const shown = await Promise.all(
      p.woken.slice(0, 3).map(async (w) => {
        const events = w.before ? await eventsAfter(client, w.id, w.before.historyLength + 1) : '';
        return `${w.id} (${JSON.stringify(w.before)} → ${JSON.stringify(w.after)}; added: ${events || 'none'})`;
      }),
    );
    report.error(NAME, `${p.woken.length} thread(s) had a workflow task while idle, e.g. ${shown.join('; ')}`);
  }
  if (p.tasksDuring !== 0)
    report.error(NAME, `the worker polled ${p.tasksDuring} workflow task(s) while every thread idled`);
}

/**
 * The worker's own settings the bench passes on: `CAIRN_WORKER_*` (its cache, its workflow
 * threads) as set for the bench, and `BENCH_WORKER_NODE_OPTIONS` as the worker's NODE_OPTIONS
 * (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile its workflow tasks).
 */
function workerTuning(env: NodeJS.ProcessEnv): Record<string, string> {
  const tuning: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (name.startsWith('CAIRN_WORKER_') && value !== undefined) tuning[name] = value;
  const nodeOptions = env['BENCH_WORKER_NODE_OPTIONS'];
  if (nodeOptions) tuning['NODE_OPTIONS'] = nodeOptions;
  return tuning;
}

export async function parkedThreads(env: BenchEnv, report: Report): Promise<void> {
  const size: ParkedSize = parkedSize(process.env);
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
    ...workerTuning(process.env),
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
    const running: Running = { client, threads, workerPid, serverPid: env.serverPid, metrics };
    const parked = await park(running, size);
    reportParked(report, size, parked);
    const problems = await messageBurst(
      {
        name: NAME,
        client,
        send: async (id) => {
          const { disposition } = await threads.send(id, { text: 'Are you still there?', kind: 'chat' });
          return disposition === 'answered' ? undefined : disposition;
        },
        llm,
        workerPid,
        serverPid: env.serverPid,
        metrics,
        before: parked.before,
      },
      spread(parked.ids, size.messaged),
      report,
    );
    if (size.idleTimeoutMs)
      report.note(
        `${NAME}: the threads' idle timeout was set to ${ms(size.idleTimeoutMs)} (BENCH_PARKED_IDLE_TIMEOUT_MS).`,
      );
    report.note(method(size, parked.baseline.seconds, load));
    await reportWoken(report, client, parked);
    reportBurstErrors(report, NAME, problems, llm);
  } finally {
    await worker?.kill('SIGTERM');
    await connection.close();
    await llm.close();
  }
}
