/**
 * The worker of version 2 in the rolling-upgrade scenario: `npm run worker` (worker/main.ts)
 * with the workflow code of chaos/v2-workflows.ts instead of `workflows/`. Same configuration,
 * same Worker Deployment options; the lab gives it its own CAIRN_BUILD_ID. It never makes itself
 * current, even in a deployment without a current version: the scenario promotes it.
 */
import { bundleWorkflowCode } from '@temporalio/worker';
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { createWorker } from '../worker/create-worker';
import { configuredVersion, describeVersion } from '../temporal/deployment-version';
import { PRELOAD_MODULES } from '../worker/workflows-path';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const version = configuredVersion(config);
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('./v2-workflows'),
    preloadModules: PRELOAD_MODULES,
  });
  const cairn = await createWorker({ config, workflows: { workflowBundle: bundle }, ...(version ? { version } : {}) });
  // The lab waits for this line (testkit/worker-process.ts), as for worker/main.ts.
  console.log(`Worker on task queue "${config.taskQueue}" (${describeVersion(version)}; chaos version 2 workflows)`);
  // It joins the deployment when it polls; the scenario, not the worker, decides when it is current.
  await cairn.run();
  await cairn.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
