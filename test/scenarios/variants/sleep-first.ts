/**
 * A workflow bundle entry whose `agentWorkflow` starts with a one-millisecond timer, unpatched:
 * a change that is not replay-compatible, so the replay gate must refuse it
 * (test/scenarios/nondeterminism.test.ts). Test-only; never registered by a worker.
 */
import { sleep } from '@temporalio/workflow';
import { agentWorkflow as current } from '../../../workflows/agent/agent-workflow';

export async function agentWorkflow(...args: Parameters<typeof current>): ReturnType<typeof current> {
  await sleep(1);
  return current(...args);
}

export { llmCheckWorkflow } from '../../../workflows/llm-check-workflow';
export { toolCatalogueWorkflow } from '../../../workflows/tool-catalogue-workflow';
export { stepWorkflow } from '../../../workflows/step/step-workflow';
export { agentStreamWorkflow } from '../../../workflows/live/live-stream-workflow';
export { threadWorkflow } from '../../../workflows/thread/thread-workflow';
