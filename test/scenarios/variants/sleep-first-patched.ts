/**
 * The same change as sleep-first.ts behind `patched()`: runs recorded before it take the old
 * path on replay, new runs the new one, so every kept history still replays
 * (test/scenarios/nondeterminism.test.ts). Test-only; never registered by a worker.
 */
import { patched, sleep } from '@temporalio/workflow';
import { agentWorkflow as current } from '../../../workflows/agent/agent-workflow';

/** The patch id; a real change names what it changes. */
export const PATCH = 'replay-gate-sleep-first';

export async function agentWorkflow(...args: Parameters<typeof current>): ReturnType<typeof current> {
  if (patched(PATCH)) await sleep(1);
  return current(...args);
}

export { llmCheckWorkflow } from '../../../workflows/llm-check-workflow';
export { toolCatalogueWorkflow } from '../../../workflows/tool-catalogue-workflow';
export { stepWorkflow } from '../../../workflows/step/step-workflow';
export { agentStreamWorkflow } from '../../../workflows/live/live-stream-workflow';
export { threadWorkflow } from '../../../workflows/thread/thread-workflow';
