/**
 * CPU over a short burst, sampled every few tens of ms: a few processes (by pid, from
 * /proc/<pid>/stat) and the whole machine (from /proc/stat's `cpu` line), so a figure can say
 * how busy each was over a window of the burst — e.g. from the sends to the last first token —
 * and whether the window was CPU-bound. The window arithmetic is a pure function.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseProcStat, sampleCpu } from './proc-cpu';

/** The machine's busy and total jiffies from /proc/stat's first line (`cpu user nice system idle iowait …`). */
export function parseMachineStat(text: string): { busy: number; total: number } {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('no cpu line in /proc/stat');
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, v) => sum + v, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** One sample: when (ms, Date.now()), each pid's CPU ticks and the machine's jiffies. */
export interface CpuSample {
  at: number;
  ticks: number[];
  machine: { busy: number; total: number };
}

/** Busy share of each pid (in cores) and of the machine (0–1 of all cores) between the samples nearest to `from` and `to`. */
export function busyBetween(
  samples: readonly CpuSample[],
  from: number,
  to: number,
  ticksPerSecond: number,
): { cores: number[]; machine: number; seconds: number } | undefined {
  const first = [...samples].reverse().find((s) => s.at <= from) ?? samples[0];
  const last = samples.find((s) => s.at >= to) ?? samples.at(-1);
  if (!first || !last || last.at <= first.at) return undefined;
  const seconds = (last.at - first.at) / 1000;
  const cores = first.ticks.map((t, i) => ((last.ticks[i] ?? t) - t) / ticksPerSecond / seconds);
  const total = last.machine.total - first.machine.total;
  const machine = total > 0 ? (last.machine.busy - first.machine.busy) / total : 0;
  return { cores, machine, seconds };
}

/** Samples `pids` and the machine every `everyMs` until stopped. */
export function sampleBurst(pids: readonly number[], everyMs = 25): { stop: () => CpuSample[]; cpuCount: number } {
  const samples: CpuSample[] = [];
  const take = () =>
    samples.push({
      at: Date.now(),
      ticks: pids.map((pid) => {
        const t = sampleCpu(pid);
        return t.utime + t.stime;
      }),
      machine: parseMachineStat(readFileSync('/proc/stat', 'utf8')),
    });
  take();
  const timer = setInterval(take, everyMs);
  return {
    cpuCount: cpus().length,
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** Every process's CPU ticks now, by pid, with its command name (or one process's threads: `/proc/<pid>/task`). */
export function allProcesses(dir = '/proc'): Map<number, { name: string; ticks: number }> {
  const out = new Map<number, { name: string; ticks: number }>();
  for (const entry of readdirSync(dir)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const line = readFileSync(`${dir}/${entry}/stat`, 'utf8');
      const name = line.slice(line.indexOf('(') + 1, line.lastIndexOf(')'));
      const t = parseProcStat(line);
      out.set(Number(entry), { name, ticks: t.utime + t.stime });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** The processes that used the most CPU between two `allProcesses` samples, as `name(pid) seconds`. */
export function topConsumers(
  before: ReadonlyMap<number, { name: string; ticks: number }>,
  after: ReadonlyMap<number, { name: string; ticks: number }>,
  ticksPerSecond: number,
  count = 6,
): string {
  return [...after]
    .map(([pid, a]) => ({ pid, name: a.name, used: (a.ticks - (before.get(pid)?.ticks ?? 0)) / ticksPerSecond }))
    .filter((p) => p.used > 0)
    .sort((x, y) => y.used - x.used)
    .slice(0, count)
    .map((p) => `${p.name}(${p.pid}) ${p.used.toFixed(2)} s`)
    .join(', ');
}
