/**
 * What bounds a parser child's whole memory, not just its V8 heap: a file can make a parser hold
 * buffers outside the heap (inflated zip entries, decoded PDF streams) that `--max-old-space-size`
 * never sees. Where a memory cgroup is writable each child gets its own, under this process's
 * cgroup (so the worker's own limit still covers it), limited to the budget and removed when the
 * child ends; the kernel kills a child that passes it. Elsewhere the child's address space is
 * limited (`prlimit`) to what it had mapped when ready plus the budget — not before it is ready,
 * since Node does not start with less than about 1.15 GB of address space. Chosen once per process.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How a child's memory is bounded: its own cgroup (v1 or v2), an address-space limit, or only its heap. */
export type MemoryBoundKind = 'cgroup-v1' | 'cgroup-v2' | 'rlimit' | 'heap-only';

/** The bound chosen for this process's parser children. */
export interface MemoryBound {
  kind: MemoryBoundKind;
  /** The folder the children's cgroups are made in (cgroups only). */
  folder?: string;
  /** One line for the worker's start log. */
  describe(budgetMb: number): string;
}

/** A child placed under the bound. */
export interface Placement {
  /** The child's cgroup folder, while it exists (cgroups only). */
  cgroup?: string;
  /** The limit set, in bytes: the cgroup's, or the address space's. */
  limitBytes: number;
  /** Whether the kernel killed the child for passing the limit (read before release). */
  killedByLimit(): boolean;
  /** The most memory the child's cgroup held, in bytes (cgroups only; read before release). */
  peakBytes(): number | undefined;
  /** Removes the child's cgroup once it has ended. */
  release(): void;
}

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** This process's cgroup path under the hierarchy whose /proc/self/cgroup line matches `controller`. */
function ownCgroup(controller: (fields: string[]) => boolean): string | undefined {
  const line = (read('/proc/self/cgroup') ?? '').split('\n').find((l) => controller(l.split(':')));
  return line?.split(':').slice(2).join(':');
}

/** Makes `folder` and checks a child cgroup can be made and limited in it; true when usable. */
function usable(folder: string, limitFile: string): boolean {
  try {
    mkdirSync(folder, { recursive: true });
    const probe = join(folder, `probe-${process.pid}`);
    mkdirSync(probe, { recursive: true });
    try {
      writeFileSync(join(probe, limitFile), String(64 * 2 ** 20));
    } finally {
      rmdirSync(probe);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * The bound to use, tried in order: a v1 memory cgroup under `root`/memory, a v2 cgroup under
 * `root` (its memory controller enabled), `prlimit`, the heap limit alone.
 */
export function chooseMemoryBound(root = '/sys/fs/cgroup'): MemoryBound {
  // One folder shared by every Cairn process in this cgroup, kept: only each child's cgroup comes and goes.
  const tag = 'cairn-parsers';
  const v1Own = ownCgroup((fields) => (fields[1] ?? '').split(',').includes('memory'));
  if (v1Own !== undefined && existsSync(join(root, 'memory', 'memory.limit_in_bytes'))) {
    const folder = join(root, 'memory', v1Own, tag);
    if (usable(folder, 'memory.limit_in_bytes')) {
      return { kind: 'cgroup-v1', folder, describe: (mb) => `a v1 memory cgroup per child at ${folder}, ${mb} MiB` };
    }
  }
  const v2Own = ownCgroup((fields) => fields[0] === '0' && fields[1] === '');
  if (v2Own !== undefined && (read(join(root, 'cgroup.controllers')) ?? '').split(/\s/).includes('memory')) {
    const folder = join(root, v2Own, tag);
    try {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'cgroup.subtree_control'), '+memory');
      if (usable(folder, 'memory.max')) {
        return { kind: 'cgroup-v2', folder, describe: (mb) => `a v2 memory cgroup per child at ${folder}, ${mb} MiB` };
      }
    } catch {
      // not writable, or its parent does not hand down the memory controller: fall through
    }
  }
  if (existsSync('/usr/bin/prlimit') || existsSync('/bin/prlimit')) {
    return { kind: 'rlimit', describe: (mb) => `RLIMIT_AS per child: its address space when ready + ${mb} MiB` };
  }
  return { kind: 'heap-only', describe: () => 'no memory cgroup or prlimit: only the V8 heap limit' };
}

let chosen: MemoryBound | undefined;

/** The bound this process uses, chosen on first use. */
export function memoryBound(): MemoryBound {
  return (chosen ??= chooseMemoryBound());
}

let serial = 0;

/** Puts the ready child `pid` under `bound` with `budgetBytes`. */
export async function placeChild(bound: MemoryBound, pid: number, budgetBytes: number): Promise<Placement> {
  if ((bound.kind === 'cgroup-v1' || bound.kind === 'cgroup-v2') && bound.folder !== undefined) {
    const v1 = bound.kind === 'cgroup-v1';
    const cgroup = join(bound.folder, `child-${process.pid}-${++serial}`);
    mkdirSync(cgroup);
    try {
      writeFileSync(join(cgroup, v1 ? 'memory.limit_in_bytes' : 'memory.max'), String(budgetBytes));
      // v1: without swap accounting memsw may be absent; with it, keep swap out of the way as well.
      if (v1 && existsSync(join(cgroup, 'memory.memsw.limit_in_bytes'))) {
        writeFileSync(join(cgroup, 'memory.memsw.limit_in_bytes'), String(budgetBytes));
      }
      if (!v1 && existsSync(join(cgroup, 'memory.swap.max'))) writeFileSync(join(cgroup, 'memory.swap.max'), '0');
      writeFileSync(join(cgroup, 'cgroup.procs'), String(pid));
    } catch (err) {
      rmdirSync(cgroup); // the child is not in it (it may have ended already): leave nothing behind
      throw err;
    }
    const counter = (file: string, key: string) =>
      Number(new RegExp(`(?:^|\\n)${key} (\\d+)`).exec(read(join(cgroup, file)) ?? '')?.[1] ?? 0);
    return {
      cgroup,
      limitBytes: budgetBytes,
      killedByLimit: () => counter(v1 ? 'memory.oom_control' : 'memory.events', 'oom_kill') > 0,
      peakBytes: () => {
        const peak = read(join(cgroup, v1 ? 'memory.max_usage_in_bytes' : 'memory.peak'));
        return peak === undefined ? undefined : Number(peak);
      },
      release: () => {
        try {
          rmdirSync(cgroup);
        } catch {
          // already gone
        }
      },
    };
  }
  if (bound.kind === 'rlimit') {
    const mapped = Number(/VmSize:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '')?.[1] ?? 0) * 1024;
    const limitBytes = mapped + budgetBytes;
    await new Promise<void>((resolve, reject) =>
      execFile('prlimit', [`--pid=${pid}`, `--as=${limitBytes}`], (err) =>
        err ? reject(new Error(err.message)) : resolve(),
      ),
    );
    return { limitBytes, killedByLimit: () => false, peakBytes: () => undefined, release: () => undefined };
  }
  return { limitBytes: Infinity, killedByLimit: () => false, peakBytes: () => undefined, release: () => undefined };
}
