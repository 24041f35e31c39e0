/**
 * Entry point of the workflow bundle: every workflow type the worker registers.
 *
 * The SDK evaluates this module, and everything it imports, afresh for every workflow run, so
 * each type's module is required only when a run of that type starts: a step run does not build
 * the agent's schemas (the agent state, its input, the interactions), nor an agent run the
 * step's. Building them was a fifth of the workflow thread's time. Requiring a module inside a
 * run is deterministic: it is the same code, evaluated before the workflow function runs.
 */
import type * as AgentModule from './agent/agent-workflow';
import type * as LlmCheckModule from './llm-check-workflow';
import type * as LiveStreamModule from './live/live-stream-workflow';
import type * as StepModule from './step/step-workflow';
import type * as ThreadModule from './thread/thread-workflow';
import type * as ToolCatalogueModule from './tool-catalogue-workflow';

/* eslint-disable @typescript-eslint/no-require-imports -- a require evaluates the module when called, an import at load */

/** An agent: plans, runs its steps as child workflows, summarises (agent/agent-workflow.ts). */
export function agentWorkflow(
  ...args: Parameters<typeof AgentModule.agentWorkflow>
): ReturnType<typeof AgentModule.agentWorkflow> {
  return (require('./agent/agent-workflow') as typeof AgentModule).agentWorkflow(...args);
}

/** One step of a plan: a ReAct tool loop (step/step-workflow.ts). */
export function stepWorkflow(
  ...args: Parameters<typeof StepModule.stepWorkflow>
): ReturnType<typeof StepModule.stepWorkflow> {
  return (require('./step/step-workflow') as typeof StepModule).stepWorkflow(...args);
}

/** One model call, to check that a worker reaches its LLM (llm-check-workflow.ts). */
export function llmCheckWorkflow(
  ...args: Parameters<typeof LlmCheckModule.llmCheckWorkflow>
): ReturnType<typeof LlmCheckModule.llmCheckWorkflow> {
  return (require('./llm-check-workflow') as typeof LlmCheckModule).llmCheckWorkflow(...args);
}

/** An agent's live stream: what its model calls say as they stream, for viewers (live/live-stream-workflow.ts). */
export function agentStreamWorkflow(
  ...args: Parameters<typeof LiveStreamModule.agentStreamWorkflow>
): ReturnType<typeof LiveStreamModule.agentStreamWorkflow> {
  return (require('./live/live-stream-workflow') as typeof LiveStreamModule).agentStreamWorkflow(...args);
}

/** A conversation: messages routed to chat replies or agent turns (thread/thread-workflow.ts). */
export function threadWorkflow(
  ...args: Parameters<typeof ThreadModule.threadWorkflow>
): ReturnType<typeof ThreadModule.threadWorkflow> {
  return (require('./thread/thread-workflow') as typeof ThreadModule).threadWorkflow(...args);
}

/** The task queue's tools, as its workers' `listTools` answers (tool-catalogue-workflow.ts). */
export function toolCatalogueWorkflow(
  ...args: Parameters<typeof ToolCatalogueModule.toolCatalogueWorkflow>
): ReturnType<typeof ToolCatalogueModule.toolCatalogueWorkflow> {
  return (require('./tool-catalogue-workflow') as typeof ToolCatalogueModule).toolCatalogueWorkflow(...args);
}

/* eslint-enable @typescript-eslint/no-require-imports */
