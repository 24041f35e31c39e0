/**
 * Token usage arithmetic, shared by agents and steps. Pure.
 */
import type { TokenUsage } from './llm-types';

/** No tokens used yet. */
export const zeroUsage = (): TokenUsage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

/** Adds `b` into `a`. */
export function addUsage(a: TokenUsage, b: TokenUsage): void {
  a.promptTokens += b.promptTokens;
  a.completionTokens += b.completionTokens;
  a.totalTokens += b.totalTokens;
}
