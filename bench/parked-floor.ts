/**
 * Benchmark 9, the parked floor: benchmark 8's message burst against the lean floor (bench/lean/
 * lean-thread.ts) — the simplest Temporal program with a parked thread's message path: a
 * workflow waiting on a long timer, a `send` update whose handler runs one streamed model-call
 * activity. N of them (BENCH_PARKED_THREADS, 10,000 unless set) are started, 32 at a time, and
 * settle; then BENCH_PARKED_MESSAGED (100) of them, spread over the start order, get a message
 * at once, and the same figures as benchmark 8's burst are taken (the fake's timestamp of each
 * reply's first chunk). The worker runs in its own process with the SDK's default settings, as
 * benchmark 8's does, on the same server and machine. What it answers: how much of benchmark
 * 8's first-token time is Temporal and the SDK on this machine, whatever Cairn does on top.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { reply, ScriptedLlm } from '../testkit/fake-llm';
import { freePort } from '../testkit/free-port';
import { startTsxProcess, type TsxProcess } from '../testkit/tsx-process';
import { fixed, ms, since, type BenchEnv } from './common';
import { mapLimit, parkedSize, spread } from './parked-figures';
import { IN_FLIGHT, settled } from './parked-probes';
import { messageBurst, reportBurstErrors } from './parked-burst';
import type { Report } from './report';

const NAME = '9. Parked floor';
const WORKER_ENTRY = join(__dirname, 'lean', 'lean-parked-worker.ts');
const SETTLE_TIMEOUT_MS = 1_200_000;

export async function parkedFloor(env: BenchEnv, report: Report): Promise<void> {
  const size = parkedSize(process.env);
  const load = loadavg()[0] ?? 0;
  const llm = await ScriptedLlm.start({ latencyMs: 0 });
  llm.respondWith((request) =>
    request.headers['x-cairn-purpose'] === 'chat' ? reply.text('Hello again — what shall we do next?') : undefined,
  );
  const metrics = `127.0.0.1:${await freePort()}`;
  const taskQueue = `bench-floor-${randomUUID().slice(0, 8)}`;
  // BENCH_FLOOR_LLM_QUEUE=1: the model call on a queue of its own, as Cairn's (no eager dispatch).
  const llmQueue = process.env['BENCH_FLOOR_LLM_QUEUE'] === '1';
  const where = llmQueue ? 'on its own task queue' : "on the thread's task queue (eager dispatch possible)";
  const connection = await Connection.connect({ address: env.address });
  let worker: TsxProcess | undefined;
  try {
    const bundle = join(env.workspace, '..', 'lean-floor-bundle.js');
    writeFileSync(bundle, env.leanWorkflowCode);
    worker = await startTsxProcess({
      entry: WORKER_ENTRY,
      env: {
        PATH: process.env.PATH ?? '',
        TEMPORAL_ADDRESS: env.address,
        BENCH_TASK_QUEUE: taskQueue,
        OPENAI_BASE_URL: llm.baseUrl,
        BENCH_WORKFLOW_BUNDLE: bundle,
        BENCH_METRICS_ADDRESS: metrics,
        BENCH_LLM_QUEUE: llmQueue ? '1' : '0',
      },
      ready: 'Worker on task queue',
      what: 'lean floor worker',
      readyTimeoutMs: 120_000,
    });
    const workerPid = worker.process.pid;
    if (workerPid === undefined) throw new Error('the worker has no process id');
    const client = new Client({ connection });
    const opening = performance.now();
    const ids = await mapLimit(Array.from({ length: size.threads }), IN_FLIGHT, async () => {
      const workflowId = `floor-${randomUUID()}`;
      await client.workflow.start('leanThread', { taskQueue, workflowId, args: [{ llmQueue }] });
      return workflowId;
    });
    const openMs = since(opening);
    const before = await settled(client, ids, SETTLE_TIMEOUT_MS);
    report.add({
      benchmark: NAME,
      figure: `${size.threads.toLocaleString('en')} lean threads started (${IN_FLIGHT} at a time; model call ${where}) / all settled idle`,
      measured: `${ms(openMs)} / +${ms(since(opening) - openMs)}`,
    });
    const problems = await messageBurst(
      {
        name: NAME,
        client,
        send: async (id) => {
          const text = await client.workflow.getHandle(id).executeUpdate<string, [string]>('send', {
            args: ['Are you still there?'],
          });
          return text.length > 0 ? undefined : 'an empty reply';
        },
        llm,
        workerPid,
        serverPid: env.serverPid,
        metrics,
        before,
      },
      spread(ids, size.messaged),
      report,
    );
    report.note(
      `${NAME}: the lean floor (bench/lean/lean-thread.ts: a workflow waiting on a timer, a send update running ` +
        `one streamed model-call activity ${where}; no validation, live stream, title or routing), ` +
        `${size.threads.toLocaleString('en')} started and settled, then ${size.messaged} messaged at once through ` +
        `executeUpdate; its worker in its own process with the SDK's default settings. Load average (1 min) ` +
        `${fixed(load)} before, ${fixed(loadavg()[0] ?? 0)} after.`,
    );
    reportBurstErrors(report, NAME, problems, llm);
  } finally {
    await worker?.kill('SIGTERM');
    await connection.close();
    await llm.close();
  }
}
