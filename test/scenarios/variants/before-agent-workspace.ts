/**
 * A workflow bundle entry standing for an agent begun before per-agent folders: today's
 * `agentWorkflow`, but a top-level agent starts as such an agent's first run did — without its
 * own folder (`sharedWorkspace`, which has the same effect as the patch not taken: no
 * `state.workspace`). Nested agents start as they come, so the shared root reaches them only
 * through the step that starts them. Test-only (test/scenarios/agent-workspaces.test.ts);
 * never registered by a Cairn worker.
 */
import { agentWorkflow as current } from '../../../workflows/agent/agent-workflow';

export function agentWorkflow(...[input, carried]: Parameters<typeof current>): ReturnType<typeof current> {
  return current(input.nested ? input : { ...input, sharedWorkspace: true }, carried);
}

export { llmCheckWorkflow } from '../../../workflows/llm-check-workflow';
export { toolCatalogueWorkflow } from '../../../workflows/tool-catalogue-workflow';
export { stepWorkflow } from '../../../workflows/step/step-workflow';
export { agentStreamWorkflow } from '../../../workflows/live/live-stream-workflow';
