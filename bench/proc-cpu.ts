/**
 * CPU time of a process from /proc/<pid>/stat (utime + stime, in clock ticks), for the CPU cost
 * per step: sampled before and after a run, for the benchmark's own process (client and
 * in-process worker) and for the dev server. The parsing and the delta are pure functions.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** User and system CPU of one process, in clock ticks. */
export interface CpuTicks {
  utime: number;
  stime: number;
}

/**
 * Parses the one line of /proc/<pid>/stat. The command name (field 2) is in parentheses and may
 * itself hold spaces and parentheses, so fields are counted from the last `)`: utime and stime
 * are fields 14 and 15 (proc(5)).
 */
export function parseProcStat(line: string): CpuTicks {
  const close = line.lastIndexOf(')');
  if (close < 0) throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  const fields = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state), so field n is fields[n - 3].
  const utime = Number(fields[14 - 3]);
  const stime = Number(fields[15 - 3]);
  if (!Number.isInteger(utime) || !Number.isInteger(stime)) throw new Error(`no utime/stime in: ${line.slice(0, 80)}`);
  return { utime, stime };
}

/** CPU seconds spent between two samples of one process. */
export function cpuSeconds(before: CpuTicks, after: CpuTicks, ticksPerSecond: number): number {
  return (after.utime + after.stime - before.utime - before.stime) / ticksPerSecond;
}

/** The kernel's clock ticks per second (`getconf CLK_TCK`; 100 on Linux unless configured). */
export function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/** A sample of `pid` now. */
export function sampleCpu(pid: number): CpuTicks {
  return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}
