/**
 * A Cairn worker in its own process (`worker/main.ts` under tsx), for tests that kill workers:
 * started with an environment, ready once it says so, and killable with any signal.
 */
import { join } from 'node:path';
import { ROOT, startTsxProcess, type TsxProcess } from './tsx-process';

export type WorkerProcess = TsxProcess;

/**
 * Starts `npm run worker`'s entry point (or `entry`, a script that runs a worker the same way)
 * with `env` and waits until it polls. Unversioned unless `env` turns Worker Deployments on.
 */
export async function startWorkerProcess(
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  entry = join(ROOT, 'worker', 'main.ts'),
): Promise<WorkerProcess> {
  return startTsxProcess({
    entry,
    env: { PATH: process.env.PATH ?? '', CAIRN_WORKER_VERSIONING: 'off', ...env },
    ready: 'Worker on task queue',
    what: 'worker',
    readyTimeoutMs,
  });
}
