/**
 * `llmCheckWorkflow` — the smallest real path through the stack: one model call as an
 * activity, through the worker's configured endpoint. Operators run it to check that a worker
 * reaches its LLM (`temporal workflow start --type llmCheckWorkflow ...`); tests use it as the
 * end-to-end slice and as the first replay fixture.
 */
import { workflowInfo } from '@temporalio/workflow';
import { llmCall } from './activity-proxies';
import type { ModelSettings, TokenUsage } from './llm-types';

/** Input of `llmCheckWorkflow`. */
export interface LlmCheckInput {
  prompt: string;
  model?: ModelSettings;
}

/** Result of `llmCheckWorkflow`. */
export interface LlmCheckResult {
  answer: string;
  model: string;
  usage: TokenUsage;
}

/** Sends `prompt` to the model once and returns its answer and token usage. */
export async function llmCheckWorkflow(input: LlmCheckInput): Promise<LlmCheckResult> {
  const result = await llmCall('llm check', {
    purpose: 'model',
    agentId: workflowInfo().workflowId,
    ...(input.model ? { model: input.model } : {}),
    messages: [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: input.prompt },
    ],
  });
  return { answer: result.content ?? '', model: result.model, usage: result.usage };
}
