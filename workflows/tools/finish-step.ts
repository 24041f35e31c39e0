/**
 * The `finish_step` tool (docs/contracts.md#llm-protocol): how a step's model hands back its result.
 */
import { z } from 'zod';
import { issueLines } from '../issue-lines';
import type { LlmToolSpec } from '../llm-types';

export const finishStepArgsSchema = z.object({
  result: z.string().min(1, 'the result is empty').describe('The outcome of the step, complete and self-contained.'),
});

/** The tool as offered to the model (built on demand: only the LLM activity needs it). */
export function finishStepTool(): LlmToolSpec {
  return {
    name: 'finish_step',
    description:
      'Call when the step is done, with its result. The result is all that later steps and the final answer will see.',
    parameters: z.toJSONSchema(finishStepArgsSchema),
  };
}

/** Parses `finish_step` arguments; errors as `path: message`. */
export function parseFinishStepArgs(raw: string): { ok: true; result: string } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'the arguments are not valid JSON' };
  }
  const parsed = finishStepArgsSchema.safeParse(value);
  if (parsed.success) return { ok: true, result: parsed.data.result };
  return { ok: false, error: issueLines(parsed.error, '(arguments)').join('; ') };
}
