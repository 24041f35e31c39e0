/**
 * A Cairn worker in its own process (`worker/main.ts` under tsx), for tests that kill workers:
 * started with an environment, ready once it says so, and killable with any signal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(__dirname, '..');

export interface WorkerProcess {
  process: ChildProcess;
  output: () => string;
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

/**
 * Starts `npm run worker`'s entry point (or `entry`, a script that runs a worker the same way)
 * with `env` and waits until it polls. Unversioned unless `env` turns Worker Deployments on.
 */
export async function startWorkerProcess(
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  entry = join(ROOT, 'worker', 'main.ts'),
): Promise<WorkerProcess> {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', CAIRN_WORKER_VERSIONING: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker not ready in ${readyTimeoutMs} ms:\n${output}`)),
      readyTimeoutMs,
    );
    const check = () => {
      if (output.includes('Worker on task queue')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  return {
    process: child,
    output: () => output,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
