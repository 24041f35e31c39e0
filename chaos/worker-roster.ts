/**
 * The worker processes of a chaos lab or a cluster world: each started with a name in
 * CHAOS_WORKER (the chaos tool's journal records it), tracked while alive, and every one's
 * output written to a folder at the end — including those killed along the way.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWorkerProcess, type WorkerProcess } from '../testkit/worker-process';
import { WORKER_ENV } from './journal';

export class WorkerRoster {
  /** Workers that are (as far as the roster knows) alive. */
  readonly alive: WorkerProcess[] = [];
  private readonly everyone: WorkerProcess[] = [];
  private readonly names = new Map<WorkerProcess, string>();

  /**
   * Starts a worker process named `w<n>` with `env` and waits until it polls (see
   * startWorkerProcess for `timeoutMs` and `entry`).
   */
  async start(env: Record<string, string>, timeoutMs?: number, entry?: string): Promise<WorkerProcess> {
    const name = `w${this.everyone.length + 1}`;
    const worker = await startWorkerProcess({ [WORKER_ENV]: name, ...env }, timeoutMs, entry);
    this.alive.push(worker);
    this.everyone.push(worker);
    this.names.set(worker, name);
    return worker;
  }

  /** The roster's name for `worker` (its CHAOS_WORKER). */
  nameOf(worker: WorkerProcess): string {
    return this.names.get(worker) ?? '?';
  }

  /** Stops `worker` with `signal` (SIGKILL: at once; SIGTERM: it drains) and waits until it is gone. */
  async stop(worker: WorkerProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    await worker.kill(signal);
    this.alive.splice(this.alive.indexOf(worker), 1);
  }

  /** Workers that died without being stopped by the roster. */
  dead(): WorkerProcess[] {
    return this.alive.filter((w) => w.process.exitCode !== null || w.process.signalCode !== null);
  }

  /** SIGKILLs every worker still alive and writes each one's output to `dir/worker-<name>.log`. */
  async closeInto(dir: string): Promise<void> {
    await Promise.all(this.alive.map((w) => w.kill('SIGKILL')));
    this.everyone.forEach((w) => writeFileSync(join(dir, `worker-${this.nameOf(w)}.log`), w.output()));
  }
}
