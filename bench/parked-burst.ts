/**
 * The second half of benchmark 8 (bench/parked-threads.ts): one `chat` message to each of the
 * chosen parked threads, all at once, and per thread the time from its send to the fake
 * writing the first content chunk of its reply, to its request reaching the fake, and to the
 * send returning; with the worker's workflow tasks, their execution time and its CPU over the
 * burst, and the events of the median thread since its send (where the time went).
 */
import type { Client } from '@temporalio/client';
import type { ScriptedLlm } from '../testkit/fake-llm';
import { fixed, median, ms, quantile } from './common';
import { allProcesses, busyBetween, sampleBurst, topConsumers } from './burst-cpu';
import { firstTokenTimes, histogramTotals, type ThreadMark } from './parked-figures';
import { eventsAfter, scrape } from './parked-probes';
import { clockTicksPerSecond } from './proc-cpu';
import type { Report } from './report';

const TARGET_P95_MS = 1_000;
/** The worker's time executing each workflow task (Core SDK histogram, seconds). */
const WORKFLOW_TASK_EXECUTION = 'temporal_workflow_task_execution_latency';

/** What the burst needs: how to message a thread, the fake, the worker's pid and metrics, each thread's settled describe. */
export interface Burst {
  name: string;
  client: Client;
  /** Sends the burst's message to one thread and waits for the reply; says what went wrong, if anything. */
  send: (id: string) => Promise<string | undefined>;
  llm: ScriptedLlm;
  workerPid: number;
  serverPid: number;
  metrics: string;
  before: ReadonlyMap<string, ThreadMark>;
}

/** Messages `chosen` at once and reports; returns the problems (sends that failed, threads with no reply). */
export async function messageBurst(b: Burst, chosen: readonly string[], report: Report): Promise<string[]> {
  const { name, client, send, llm, workerPid, serverPid, metrics, before } = b;
  const ticks = clockTicksPerSecond();
  const add = (figure: string, measured: string, target?: { text: string; met: boolean }) =>
    report.add(
      target
        ? { benchmark: name, figure, measured, target: target.text, met: target.met }
        : { benchmark: name, figure, measured },
    );
  const sentAt = new Map<string, number>();
  const metricsBefore = await scrape(metrics);
  const processesBefore = allProcesses();
  const workerThreadsBefore = allProcesses(`/proc/${workerPid}/task`);
  const sampler = sampleBurst([workerPid, serverPid, process.pid]);
  const startedAt = Date.now();
  const answered: number[] = [];
  const failures: string[] = [];
  await Promise.all(
    chosen.map(async (id) => {
      const sent = Date.now();
      sentAt.set(id, sent);
      try {
        const problem = await send(id);
        if (problem !== undefined) failures.push(`${id}: ${problem}`);
        answered.push(Date.now() - sent);
      } catch (err) {
        failures.push(`${id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
  );
  const samples = sampler.stop();
  // The worker's CPU over the whole burst: its first and last sample (the worker is the sampler's first pid).
  const burstCpu = ((samples.at(-1)?.ticks[0] ?? 0) - (samples[0]?.ticks[0] ?? 0)) / ticks;
  const consumers = topConsumers(processesBefore, allProcesses(), ticks);
  const workerThreads = topConsumers(workerThreadsBefore, allProcesses(`/proc/${workerPid}/task`), ticks, 8);
  const burstMetrics = await scrape(metrics);
  const taskTimes = [metricsBefore, burstMetrics].map((m) => histogramTotals(m, WORKFLOW_TASK_EXECUTION));
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
  const window = busyBetween(samples, startedAt, startedAt + Math.max(...first), ticks);
  if (window)
    add(
      `${chosen.length} threads messaged at once: CPU from the sends to the last first token (${ms(1000 * window.seconds)}), cores busy: worker / dev server / bench (fake, clients) / whole machine of ${sampler.cpuCount}`,
      `${window.cores.map((c) => fixed(c)).join(' / ')} / ${fixed(window.machine * sampler.cpuCount)}`,
    );
  report.note(
    `${name}: the processes that used the most CPU over the whole burst (${ms(Math.max(...answered))}): ${consumers}; the worker's threads: ${workerThreads}.`,
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
      `${name}: the median thread's message (first token at ${ms(typical[1])}, its chat request at ` +
        `${ms(arrived.get(typical[0]) ?? Number.NaN)}): its events after the send, ms after it: ${timeline}.`,
    );
  }
  return [...failures, ...missing.map((id) => `${id}: no chat reply reached the fake`)];
}

/** The burst's errors: messages unanswered (e.g. the first three), and model requests the fake had no script for. */
export function reportBurstErrors(report: Report, name: string, problems: readonly string[], llm: ScriptedLlm): void {
  if (problems.length > 0)
    report.error(name, `${problems.length} message(s) went unanswered, e.g. ${problems.slice(0, 3).join('; ')}`);
  if (llm.unscripted.length > 0) report.error(name, `${llm.unscripted.length} unscripted model request(s)`);
}
