/** The path of the workflow bundle entry, for `bundleWorkflowCode` and `workflowsPath`. */
export const WORKFLOWS_PATH = require.resolve('../workflows');

/**
 * Modules loaded once per worker and shared between workflows (bundler `preloadModules`); see
 * workflows/shared-modules.ts for why and what makes it safe. Every bundle must use it.
 */
export const PRELOAD_MODULES = [require.resolve('../workflows/shared-modules')];
