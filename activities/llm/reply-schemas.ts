/**
 * The JSON Schemas of replies the LLM activity asks for by name, derived from the zod plan and
 * route schemas (never written twice) and built once per process.
 */
import { planJsonSchema, remainingPlanJsonSchema } from '../../workflows/plan/plan-schema';
import type { LlmReplySchema } from '../../workflows/llm-call-schema';
import { routeJsonSchema } from '../../workflows/graph/route-reply';
import { verifyJsonSchema } from '../../workflows/step/verify-reply';
import { assessJsonSchema } from '../../workflows/plan/assess-reply';
import { messageRouteJsonSchema } from '../../workflows/thread/message-route';

const BUILD: Record<LlmReplySchema, () => Record<string, unknown>> = {
  plan: planJsonSchema,
  replan: remainingPlanJsonSchema,
  route: routeJsonSchema,
  verify: verifyJsonSchema,
  assess: assessJsonSchema,
  'route-message': messageRouteJsonSchema,
};

const cache: Partial<Record<LlmReplySchema, Record<string, unknown>>> = {};

/** The JSON Schema of a reply schema name. */
export function replyJsonSchema(name: LlmReplySchema): Record<string, unknown> {
  return (cache[name] ??= BUILD[name]());
}
