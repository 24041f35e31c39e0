/**
 * The two ways a CLI test's `cairn` talks: straight to Temporal, or through Cairn's HTTP API
 * served here on loopback, signed in with a token as ann (operator and approver).
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Client } from '@temporalio/client';
import type { AppDeps } from '../../client/http/create-app';
import { ThreadClient } from '../../client/threads/thread-client';
import { serveOnLoopback } from './sse-client';
import { tokenApp } from './token-app';

export const STRAIGHT = 'straight to Temporal';
export const THROUGH_API = 'through the HTTP API';
export type CliWay = typeof STRAIGHT | typeof THROUGH_API;

/** Where `cairn` goes: its environment, and what to close once it is done. */
export interface CliTarget {
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * `cairn`'s environment for `way`: `direct` as given straight to Temporal; through the API, an
 * app with a thread client (and `extra`) on `taskQueue`, each request shown to `onRequest`
 * first, and CAIRN_API_URL and ann's token.
 */
export async function cliTarget(
  way: CliWay,
  client: Client,
  taskQueue: string,
  direct: Record<string, string>,
  extra: Partial<AppDeps> = {},
  onRequest?: (request: Request) => void,
): Promise<CliTarget> {
  if (way === STRAIGHT) return { env: direct, close: () => Promise.resolve() };
  const app = tokenApp(client, taskQueue, [{ principal: 'ann', roles: ['operator', 'approver'], token: 'ann-token' }], {
    threads: new ThreadClient(client, taskQueue),
    ...extra,
  });
  // Each request seen first by `onRequest` (the app mounted behind a recording one).
  const outer = new OpenAPIHono();
  outer.use('*', async (c, next) => {
    onRequest?.(c.req.raw);
    await next();
  });
  outer.route('/', app);
  const server = await serveOnLoopback(outer);
  return {
    env: { CAIRN_API_URL: server.url, CAIRN_TOKEN: 'ann-token', CAIRN_TASK_QUEUE: taskQueue },
    close: () => server.close(),
  };
}
