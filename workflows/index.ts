/** Entry point of the workflow bundle: every workflow type the worker registers. */
export { llmCheckWorkflow } from './llm-check-workflow';
