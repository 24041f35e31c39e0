/**
 * Version 2 of the workflow code for the rolling-upgrade scenario: Cairn's workflows with a
 * change that is NOT replay-compatible — every agent run starts with a timer before anything
 * else (the first command of a version-1 run is the tool catalogue activity, or, for a
 * continued run, its first step or plan check). A version-1 history replayed by this code fails
 * with a non-determinism error, so any agent of version 1 that reached a version-2 worker would
 * show it; a run that starts here is fine.
 */
import { sleep } from '@temporalio/workflow';
import { agentWorkflow as released } from '../workflows/agent/agent-workflow';

export { llmCheckWorkflow } from '../workflows/llm-check-workflow';
export { stepWorkflow } from '../workflows/step/step-workflow';

/** `agentWorkflow` of version 2: a one-millisecond timer first, then the released code. */
export async function agentWorkflow(...args: Parameters<typeof released>): ReturnType<typeof released> {
  await sleep(1);
  return await released(...args);
}
