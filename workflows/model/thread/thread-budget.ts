/**
 * A thread's budget over all its turns: what its own calls (`route-message`, `chat`) and its turns'
 * agents spent, against the thread's `budget`. A task turn's agent gets what is left as the
 * ceiling of its own budget (the sender's limit, lowered to it) and of any raise, as a nested
 * agent does; a turn's spend counts whether it completed, stopped, failed or was cancelled; once
 * the thread's budget is spent a message is refused. Pure.
 */
import { asLimits, budgetLeft, isSpent, type BudgetLeft } from '../llm/budget-left';
import type { ThreadSettings } from './thread-schemas';
import type { TokenUsage } from '../llm/llm-types';
import { addUsage, zeroUsage } from '../llm/usage';

export class ThreadBudget {
  readonly usage: TokenUsage;

  constructor(
    private readonly budget: ThreadSettings['budget'],
    carried?: TokenUsage,
  ) {
    this.usage = carried ? { ...carried } : zeroUsage();
  }

  /** Counts what a call or a turn's agent spent. */
  add(usage: TokenUsage): void {
    addUsage(this.usage, usage);
  }

  /** What the thread's budget has left; undefined without one. */
  left(): BudgetLeft | undefined {
    return this.budget ? budgetLeft(this.usage, this.budget.tokens, this.budget.costUsd) : undefined;
  }

  /** Why a message is refused now (the budget is spent), or undefined. */
  refusal(): string | undefined {
    const left = this.left();
    if (!left || !isSpent(left)) return undefined;
    return `the thread's budget is spent (${this.usage.totalTokens} tokens used)`;
  }

  /**
   * A task turn's `limits`: the sender's, each budget lowered to what the thread has left — and
   * that as the most a raise may set (`maxTokenBudget`, `maxCostBudgetUsd`), so a budget raised
   * through the agent's routes cannot spend past the thread's: an answer above it is refused
   * (INVALID_ANSWER), and a turn that reaches it stops as a nested agent does.
   */
  turnLimits(sent: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    const left = this.left();
    if (!left) return sent;
    const ceiling = asLimits(left);
    const own = sent ?? {};
    const lower = (mine: unknown, cap: number | undefined) =>
      typeof mine === 'number' && cap !== undefined ? Math.min(mine, cap) : (cap ?? mine);
    const lowered = {
      tokenBudget: lower(own['tokenBudget'], ceiling.tokenBudget),
      costBudgetUsd: lower(own['costBudgetUsd'], ceiling.costBudgetUsd),
      maxTokenBudget: lower(own['maxTokenBudget'], ceiling.tokenBudget),
      maxCostBudgetUsd: lower(own['maxCostBudgetUsd'], ceiling.costBudgetUsd),
    };
    const set = Object.entries(lowered).filter(([, value]) => value !== undefined);
    return { ...own, ...Object.fromEntries(set) };
  }
}
