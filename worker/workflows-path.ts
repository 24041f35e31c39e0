import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The path of the workflow bundle entry, for `bundleWorkflowCode` and `workflowsPath`. */
export const WORKFLOWS_PATH = require.resolve('../workflows');

/**
 * The file name of the workflow bundle `npm run build` writes beside the compiled worker
 * (scripts/build.ts). Its presence is how a worker knows it runs from the build.
 */
export const WORKFLOW_BUNDLE_FILE = 'workflow-bundle.js';

/**
 * The workflow bundle made at build time, when this module runs from the build (the bundle lies
 * beside it); undefined when running from source, where the worker bundles `workflows/` at start.
 */
export function prebuiltWorkflowBundle(dir = __dirname): { workflowBundle: { codePath: string } } | undefined {
  const codePath = join(dir, WORKFLOW_BUNDLE_FILE);
  return existsSync(codePath) ? { workflowBundle: { codePath } } : undefined;
}

/**
 * Modules loaded once per worker and shared between workflows (bundler `preloadModules`); see
 * workflows/shared-modules.ts for why and what makes it safe. Every bundle must use it.
 */
export const PRELOAD_MODULES = [require.resolve('../workflows/shared-modules')];

/**
 * Workflow interceptor modules every bundle must include (`workflowInterceptorModules` of
 * `bundleWorkflowCode`, or the worker's `interceptors.workflowModules` when it bundles at start):
 * tracing through Temporal's OpenTelemetry interceptors, with the agent and step named on the
 * spans, and the step duration metric. Always bundled; a worker that does not trace drops the
 * spans (worker/telemetry/tracing.ts), so one bundle serves both.
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [
  require.resolve('../workflows/telemetry/trace-interceptors'),
  require.resolve('../workflows/telemetry/step-metrics'),
];
