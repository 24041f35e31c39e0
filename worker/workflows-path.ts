/** The path of the workflow bundle entry, for `bundleWorkflowCode` and `workflowsPath`. */
export const WORKFLOWS_PATH = require.resolve('../workflows');
