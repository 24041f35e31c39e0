/**
 * A Cairn web server in its own process (`client/http/main.ts` under tsx, what `npm run web`
 * runs), for tests and benchmarks that run Cairn as processes: started with an environment on a
 * free port, ready once it says where it listens, and killable with any signal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from './free-port';

const ROOT = join(__dirname, '..');

export interface WebProcess {
  process: ChildProcess;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  output: () => string;
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

/** Starts the web server with `env` (CAIRN_HTTP_PORT chosen here) and waits until it listens. */
export async function startWebProcess(env: Record<string, string>, readyTimeoutMs = 60_000): Promise<WebProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'client', 'http', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CAIRN_HTTP_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`web server not ready in ${readyTimeoutMs} ms:\n${output}`)),
      readyTimeoutMs,
    );
    const check = () => {
      if (output.includes(`Cairn API on ${url}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web server exited with ${code}:\n${output}`));
    });
  });
  return {
    process: child,
    url,
    output: () => output,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
