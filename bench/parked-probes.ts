/**
 * What benchmark 8 (bench/parked-threads.ts) reads from the processes and the server: CPU and
 * memory of the worker and the dev server over an idle window (/proc), the worker's Prometheus
 * samples, and each thread's describe (history length, pending workflow task, status), a
 * bounded number at a time.
 */
import { readFileSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import { budgetEvent } from './budget-events';
import { since } from './common';
import { mapLimit, parseSamples, residentBytes, type Sample, type ThreadMark } from './parked-figures';
import { clockTicksPerSecond, cpuSeconds, sampleCpu, type CpuTicks } from './proc-cpu';

/** Starts and describes in flight at once: enough to keep the dev server busy, not to flood it. */
export const IN_FLIGHT = 32;
/** How often memory is sampled during a window. */
const RSS_EVERY_MS = 5_000;

/** What a window measured: CPU of each process as % of one core, memory at its peak and end. */
export interface Window {
  seconds: number;
  workerCpuPct: number;
  serverCpuPct: number;
  workerRss: { peak: number; end: number };
  serverRss: { peak: number; end: number };
}

const rssOf = (pid: number) => residentBytes(readFileSync(`/proc/${pid}/status`, 'utf8'));
export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Samples CPU over `seconds` of doing nothing and memory every few seconds. */
export async function idleWindow(workerPid: number, serverPid: number, seconds: number): Promise<Window> {
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

/** The worker's /metrics, parsed. */
export async function scrape(address: string): Promise<Sample[]> {
  const response = await fetch(`http://${address}/metrics`);
  if (!response.ok) throw new Error(`the worker's /metrics answered ${response.status}`);
  return parseSamples(await response.text());
}

/** Each thread as a describe shows it, `IN_FLIGHT` at a time. */
export async function describeAll(client: Client, ids: readonly string[]): Promise<Map<string, ThreadMark>> {
  const marks = await mapLimit(ids, IN_FLIGHT, async (id) => {
    const d = await client.workflow.getHandle(id).describe();
    const mark: ThreadMark = {
      historyLength: d.historyLength,
      pendingTask: d.raw.pendingWorkflowTask != null,
      status: d.status.name,
      pendingActivities: d.raw.pendingActivities?.length ?? 0,
    };
    return [id, mark] as const;
  });
  return new Map(marks);
}

/** Describes until every thread has had its first workflow task and waits on its idle timer (re-describing only those that had not). */
export async function settled(
  client: Client,
  ids: readonly string[],
  timeoutMs: number,
): Promise<Map<string, ThreadMark>> {
  const deadline = Date.now() + timeoutMs;
  const marks = new Map<string, ThreadMark>();
  let busy = [...ids];
  for (;;) {
    for (const [id, mark] of await describeAll(client, busy)) marks.set(id, mark);
    busy = busy.filter((id) => {
      const m = marks.get(id);
      return !m || m.pendingTask || (m.pendingActivities ?? 0) > 0 || m.historyLength < 4 || m.status !== 'RUNNING';
    });
    if (busy.length === 0) return marks;
    if (Date.now() > deadline) throw new Error(`${busy.length} thread(s) never settled, e.g. ${busy[0]}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** The events of `id` from event `from` on (1-based), each as `TYPE +ms` after `zero` (`Date.now()`). */
export async function eventsAfter(client: Client, id: string, from: number, zero?: number): Promise<string> {
  const history = await client.workflow.getHandle(id).fetchHistory();
  const events = (history.events ?? []).map(budgetEvent).filter((e) => e.eventId >= from);
  const short = (type: string) => type.replace(/^EVENT_TYPE_/, '');
  return events.map((e) => (zero === undefined ? short(e.type) : `${short(e.type)} +${e.time - zero}`)).join(', ');
}
