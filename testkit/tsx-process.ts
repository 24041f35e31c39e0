/**
 * A TypeScript entry point of Cairn in its own process under tsx (a worker, a web server), for
 * tests and benchmarks that run Cairn as processes: started with an environment, ready once its
 * output holds a line that says so, and killable with any signal (waiting for it to exit).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The repository's root. */
export const ROOT = join(__dirname, '..');

/** A started process. */
export interface TsxProcess {
  process: ChildProcess;
  output: () => string;
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

/** What to start: the entry, its environment, what its output says once ready, and its name in errors. */
export interface TsxProcessSpec {
  entry: string;
  env: Record<string, string>;
  ready: string;
  what: string;
  readyTimeoutMs: number;
}

/** Starts `spec.entry` and waits until its stdout holds `spec.ready`; an exit before that fails. */
export async function startTsxProcess(spec: TsxProcessSpec): Promise<TsxProcess> {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, spec.entry], {
    cwd: ROOT,
    env: spec.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${spec.what} not ready in ${spec.readyTimeoutMs} ms:\n${output}`)),
      spec.readyTimeoutMs,
    );
    const check = () => {
      if (output.includes(spec.ready)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${spec.what} exited with ${code}:\n${output}`));
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
