/**
 * How long a reply may be: every call carries a `max_tokens`, so a confused model cannot
 * generate until the LLM timeout (and be retried while the server keeps generating). The agent's
 * own `model.maxTokens` wins (sub-agents and sub-calls inherit it); else `CAIRN_LLM_MODELS` for
 * the model and purpose; else the default for the purpose.
 */
import { settingsFor, type LlmModelTable } from '../../config/llm-models-config';
import type { LlmPurpose } from '../../workflows/model/llm/llm-call-schema';

/** Default reply budgets per purpose: a plan of many steps fits, a runaway reply does not. */
export const DEFAULT_MAX_TOKENS: Record<LlmPurpose, number> = {
  plan: 4096,
  replan: 4096,
  step: 4096,
  summary: 2048,
  model: 2048,
  /** A router's `{ to, reason }`: short. */
  route: 512,
  /** A checker's `{ ok, feedback }`. */
  verify: 1024,
  /** An assessor's `{ complexity }`. */
  assess: 256,
  /** A thread's chat reply: a conversational answer. */
  chat: 2048,
  /** A thread router's `{ kind, reason }`. */
  'route-message': 256,
  /** A thread's summary of its older turns (thread-compress.ts). */
  compress: 1024,
  /** A thread's title: a few words. */
  title: 64,
};

/** The `max_tokens` of a call. */
export function maxTokensFor(
  purpose: LlmPurpose,
  model: string,
  agentMaxTokens: number | undefined,
  models: LlmModelTable = {},
): number {
  return agentMaxTokens ?? settingsFor(models, model).maxTokens?.[purpose] ?? DEFAULT_MAX_TOKENS[purpose];
}
