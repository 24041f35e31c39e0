/**
 * The JSON Schemas of replies the LLM activity asks for by name, derived from the zod plan
 * schemas (never written twice) and built once per process.
 */
import { planJsonSchema, remainingPlanJsonSchema } from '../../workflows/plan/plan-schema';
import type { LlmReplySchema } from '../../workflows/llm-call-schema';

const cache: Partial<Record<LlmReplySchema, Record<string, unknown>>> = {};

/** The JSON Schema of a reply schema name. */
export function replyJsonSchema(name: LlmReplySchema): Record<string, unknown> {
  return (cache[name] ??= name === 'plan' ? planJsonSchema() : remainingPlanJsonSchema());
}
