/**
 * The JSON Schemas of replies the LLM activity asks for by name, derived from the zod plan and
 * route schemas (never written twice) and built once per process.
 */
import { planJsonSchema, remainingPlanJsonSchema } from '../../workflows/model/plan/plan-schema';
import type { LlmReplySchema } from '../../workflows/model/llm/llm-call-schema';
import { routeJsonSchema } from '../../workflows/model/graph/route-reply';
import { verifyJsonSchema } from '../../workflows/model/step/verify-reply';
import { assessJsonSchema } from '../../workflows/model/plan/assess-reply';
import { messageRouteJsonSchema } from '../../workflows/model/thread/message-route';

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
