/** Entry point of the workflow bundle: every workflow type the worker registers. */
export { agentWorkflow } from './agent/agent-workflow';
export { llmCheckWorkflow } from './llm-check-workflow';
export { stepWorkflow } from './step/step-workflow';
