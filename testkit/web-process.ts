/**
 * A Cairn web server in its own process (`client/http/main.ts` under tsx, what `npm run web`
 * runs), for tests and benchmarks that run Cairn as processes: started with an environment on a
 * free port, ready once it says where it listens, and killable with any signal.
 */
import { join } from 'node:path';
import { freePort } from './free-port';
import { ROOT, startTsxProcess, type TsxProcess } from './tsx-process';

export interface WebProcess extends TsxProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
}

/** Starts the web server with `env` (CAIRN_HTTP_PORT chosen here) and waits until it listens. */
export async function startWebProcess(env: Record<string, string>, readyTimeoutMs = 60_000): Promise<WebProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = await startTsxProcess({
    entry: join(ROOT, 'client', 'http', 'main.ts'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CAIRN_HTTP_PORT: String(port), ...env },
    ready: `Cairn API on ${url}`,
    what: 'web server',
    readyTimeoutMs,
  });
  return { ...started, url };
}
