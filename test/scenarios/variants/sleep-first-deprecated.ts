/**
 * The patch of sleep-first-patched.ts moved on to `deprecatePatch()` too early: the new path is
 * taken unconditionally, so runs recorded before the patch — every kept history of an earlier
 * release — no longer replay (test/scenarios/nondeterminism.test.ts). Test-only.
 */
import { deprecatePatch, sleep } from '@temporalio/workflow';
import { agentWorkflow as current } from '../../../workflows/agent/agent-workflow';
import { PATCH } from './sleep-first-patched';

export async function agentWorkflow(...args: Parameters<typeof current>): ReturnType<typeof current> {
  deprecatePatch(PATCH);
  await sleep(1);
  return current(...args);
}

export { llmCheckWorkflow } from '../../../workflows/llm-check-workflow';
export { toolCatalogueWorkflow } from '../../../workflows/tool-catalogue-workflow';
export { stepWorkflow } from '../../../workflows/step/step-workflow';
export { agentStreamWorkflow } from '../../../workflows/live/live-stream-workflow';
export { threadWorkflow } from '../../../workflows/thread/thread-workflow';
