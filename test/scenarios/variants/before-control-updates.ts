/**
 * A workflow bundle entry standing for an agent on a release from before the `pause`, `resume`
 * and `recordCancel` updates: today's `agentWorkflow` with those three handlers taken away once
 * it registered them, so the SDK rejects the updates as an older release's code does ("no
 * registered handler", no Cairn code) while the signals work as they always did. Test-only
 * (test/scenarios/older-release-controls.test.ts); never registered by a Cairn worker.
 */
import { setHandler } from '@temporalio/workflow';
import { agentWorkflow as current } from '../../../workflows/agent/agent-workflow';
import { pauseUpdate, recordCancelUpdate, resumeUpdate } from '../../../workflows/contract/messages';

export function agentWorkflow(...args: Parameters<typeof current>): ReturnType<typeof current> {
  // The run registers its handlers before its first await, so they are all set when it returns.
  const run = current(...args);
  setHandler(pauseUpdate, undefined);
  setHandler(resumeUpdate, undefined);
  setHandler(recordCancelUpdate, undefined);
  return run;
}

export { llmCheckWorkflow } from '../../../workflows/llm-check-workflow';
export { toolCatalogueWorkflow } from '../../../workflows/tool-catalogue-workflow';
export { stepWorkflow } from '../../../workflows/step/step-workflow';
export { agentStreamWorkflow } from '../../../workflows/live/live-stream-workflow';
