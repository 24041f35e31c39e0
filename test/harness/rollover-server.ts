/**
 * A dev server of the test file's own whose continue-as-new suggestion comes after a few dozen
 * history events (dynamic config), so long runs roll over in seconds. Registers the file's
 * beforeAll / afterAll and hands out a client on it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { startDevServer, type DevServer } from '../../scripts/dev-server';
import { lowFreePort } from '../../testkit/low-port';
import { runInfo } from './run-info';
import { closeClient, connectClient } from './test-env';

/** History events after which the server suggests continue-as-new (the default is 4,096). */
export const SUGGEST_AFTER_EVENTS = 60;

/** The server's address and a client on it, set once the file's beforeAll has run. */
export interface RolloverServer {
  address: string;
  client: Client;
}

/** Starts the server before the file's tests and stops it after. */
export function rolloverServer(name: string): RolloverServer {
  const handle = {} as RolloverServer;
  let server: DevServer | undefined;
  beforeAll(async () => {
    server = await startDevServer({
      cli: runInfo().temporalCli,
      dbFile: join(mkdtempSync(join(tmpdir(), `${name}-`)), 'temporal.db'),
      port: await lowFreePort(),
      logFile: join(tmpdir(), `cairn-${name}-server.log`),
      dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': SUGGEST_AFTER_EVENTS },
    });
    handle.address = server.address;
    handle.client = await connectClient(server.address);
  }, 60_000);
  afterAll(async () => {
    await closeClient(handle.client);
    await server?.stop();
  });
  return handle;
}
