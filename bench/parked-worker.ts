/**
 * The worker of benchmark 8 in its own process: `npm run worker`'s entry (worker/main.ts) as a
 * production build runs it — configured by the environment, the runtime's metrics served, and
 * the workflow bundle made beforehand (`BENCH_WORKFLOW_BUNDLE`, the bench's bundle written to a
 * file) instead of bundling with webpack at start, whose leftovers would sit in the resident
 * memory being measured. Says "Worker on task queue" once it polls; SIGTERM drains it (the
 * Temporal runtime's own signal handling, as for `npm run worker`).
 */
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { configuredSecrets, createRedactor } from '../config/redact-secrets';
import { createWorker } from '../worker/create-worker';
import { serveMetrics } from '../worker/telemetry/metrics-endpoint';
import { installRedactingRuntime } from '../worker/redacting-logger';

async function main(): Promise<void> {
  const codePath = process.env['BENCH_WORKFLOW_BUNDLE'];
  if (!codePath) throw new Error('BENCH_WORKFLOW_BUNDLE: the workflow bundle file is required');
  const config = loadConfigOrExit();
  const metrics = config.telemetry.metrics ? await serveMetrics(config.telemetry.metrics) : undefined;
  installRedactingRuntime(createRedactor(configuredSecrets(config)), 'WARN', {
    metricsAddress: metrics?.exporterAddress,
  });
  const cairn = await createWorker({ config, workflows: { workflowBundle: { codePath } } });
  const running = cairn.run();
  console.log(`Worker on task queue "${config.taskQueue}" (bench, prebuilt bundle)`);
  await running;
  await cairn.close();
  await metrics?.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
