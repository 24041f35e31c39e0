/**
 * Jest global setup: starts ONE real Temporal dev server for the whole run (free port,
 * throw-away SQLite file, Cairn's search attributes), bundles the workflow code once, and
 * publishes both to the test processes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ensureTemporalCli, startDevServer, temporalVersion, type DevServer } from '../../scripts/dev-server';
import { PRELOAD_MODULES, WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../../worker/workflows-path';
import { lowFreePort } from '../../testkit/low-port';
import { quietLogger } from './quiet-logger';
import { publishRunInfo } from './run-info';

declare global {
  var cairnDevServer: DevServer | undefined;
}

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'cairn-test-'));
  const cli = ensureTemporalCli();
  const [server, bundle] = await Promise.all([
    startDevServer({
      cli,
      dbFile: join(dir, 'temporal.db'),
      port: await lowFreePort(),
      logFile: join(dir, 'temporal.log'),
    }),
    bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      preloadModules: PRELOAD_MODULES,
      workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
      logger: quietLogger,
    }),
  ]);
  globalThis.cairnDevServer = server;
  const workflowBundlePath = join(dir, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, bundle.code);
  publishRunInfo({ temporalAddress: server.address, workflowBundlePath, temporalCli: cli });
  process.stdout.write(
    `\n[cairn tests] Temporal dev server: ${cli} — ${temporalVersion(cli)}\n` +
      `[cairn tests] listening on ${server.address}, data in ${dir}, ready in ${Date.now() - started} ms\n`,
  );
}
