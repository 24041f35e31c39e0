/**
 * Token usage and cost arithmetic, shared by agents and steps. Pure.
 *
 * A cost is a number of US dollars, or `null` when some call's model had no price: unknown,
 * never shown as 0. Unknown stays unknown when added to (a sum with one unpriced call in it is
 * not a known cost). A usage recorded before costs existed has no `costUsd`: unknown too.
 */
import type { TokenUsage } from './llm-types';

/** No tokens used yet, at no cost. */
export const zeroUsage = (): TokenUsage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0 });

/** Adds `b` into `a`. */
export function addUsage(a: TokenUsage, b: TokenUsage): void {
  a.promptTokens += b.promptTokens;
  a.completionTokens += b.completionTokens;
  a.totalTokens += b.totalTokens;
  if (b.cachedPromptTokens !== undefined) a.cachedPromptTokens = (a.cachedPromptTokens ?? 0) + b.cachedPromptTokens;
  if (b.estimated) a.estimated = true;
  a.costUsd = typeof a.costUsd === 'number' && typeof b.costUsd === 'number' ? a.costUsd + b.costUsd : null;
}

/** The cost of `usage` when it is known. */
export function knownCost(usage: TokenUsage): number | undefined {
  return typeof usage.costUsd === 'number' ? usage.costUsd : undefined;
}
