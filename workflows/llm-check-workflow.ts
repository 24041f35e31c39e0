/**
 * `llmCheckWorkflow` — the smallest real path through the stack: one model call as an
 * activity, through the worker's configured endpoint. Operators run it to check that a worker
 * reaches its LLM (`temporal workflow start --type llmCheckWorkflow ...`); tests use it as the
 * end-to-end slice and as the first replay fixture.
 */
import { workflowInfo } from '@temporalio/workflow';
import { z } from 'zod';
import { llmCall } from './runtime/activity-proxies';
import { modelSettingsSchema } from './model/llm/llm-types';
import { tokenUsageSchema } from './model/state/step-run-schema';

/** Input of `llmCheckWorkflow`. */
export const llmCheckInputSchema = z.object({ prompt: z.string(), model: modelSettingsSchema.optional() });
/** Input of `llmCheckWorkflow`. */
export type LlmCheckInput = z.infer<typeof llmCheckInputSchema>;

/** Result of `llmCheckWorkflow`. */
export const llmCheckResultSchema = z.object({ answer: z.string(), model: z.string(), usage: tokenUsageSchema });
/** Result of `llmCheckWorkflow`. */
export type LlmCheckResult = z.infer<typeof llmCheckResultSchema>;

/** Sends `prompt` to the model once and returns its answer and token usage. */
export async function llmCheckWorkflow(input: LlmCheckInput): Promise<LlmCheckResult> {
  const result = await llmCall('llm check', {
    purpose: 'model',
    ownerId: workflowInfo().workflowId,
    ...(input.model ? { model: input.model } : {}),
    messages: [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: input.prompt },
    ],
  });
  return { answer: result.content ?? '', model: result.model, usage: result.usage };
}
