/**
 * The `assess` model call's words and reply (`mode.assess`): a quick judgement of the task before
 * planning, `{ "complexity": "simple" | "moderate" | "complex" }`. Simple tasks run as one ReAct
 * step, moderate ones plan as usual, complex ones plan with reasoning turned up. Pure.
 */
import { z } from 'zod';
import { parseJsonReply } from '../json-reply';

/** How complex a task was judged. */
export const COMPLEXITIES = ['simple', 'moderate', 'complex'] as const;
/** How complex a task was judged. */
export type Complexity = (typeof COMPLEXITIES)[number];

/** The assessor's reply. */
export const assessReplySchema = z.strictObject({
  complexity: z
    .enum(COMPLEXITIES)
    .describe('simple: one focused action; moderate: a few steps; complex: many steps or hard reasoning.'),
});

/** JSON Schema of {@link assessReplySchema}: what the `assess` reply must match. */
export function assessJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(assessReplySchema);
}

/** The assessor's system prompt. */
export const ASSESSOR_SYSTEM_PROMPT = [
  'Judge how complex a task is before an agent works on it.',
  'simple: one focused action with the tools, no plan needed. moderate: a few steps. complex: many steps, research or hard reasoning.',
  'Answer with a JSON object only: {"complexity": "simple" | "moderate" | "complex"}.',
].join('\n');

/** The judged complexity, or undefined when the reply cannot be read. */
export function readAssessReply(content: string | null): Complexity | undefined {
  const json = parseJsonReply(content);
  if (!json.ok) return undefined;
  const parsed = assessReplySchema.safeParse(json.value);
  return parsed.success ? parsed.data.complexity : undefined;
}
