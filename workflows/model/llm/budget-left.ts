/**
 * What an agent tree's budget has left, as a nested agent and the steps that start one see it:
 * tokens and US dollars still to spend before a budget in force is reached. An agent hands its
 * steps the budget left when they start and with each word on their hold; a step gives a
 * nested agent it starts (`sub_agent`) what is left less what the step spent since — the nested
 * agent's own budget, at which it stops itself. Pure, and neutral ground: `agent/` and `step/`
 * both use it.
 */
import { z } from 'zod';
import type { TokenUsage } from './llm-types';
import { knownCost } from './usage';

/**
 * What a budget has left; a field is absent when no such budget is in force (or its cost is
 * unknown). It crosses workflows: the `stepHold` and `nestedBudget` signals, a step's input and
 * its carry.
 */
export const budgetLeftSchema = z.object({ tokens: z.number().optional(), costUsd: z.number().optional() });

/** What a budget has left; a field is absent when no such budget is in force (or its cost is unknown). */
export type BudgetLeft = z.infer<typeof budgetLeftSchema>;

/** The budget left after `usage`, for the budgets in force (undefined when there is none). */
export function budgetLeft(usage: TokenUsage, tokenBudget?: number, costBudgetUsd?: number): BudgetLeft | undefined {
  if (tokenBudget === undefined && costBudgetUsd === undefined) return undefined;
  const cost = knownCost(usage);
  return {
    ...(tokenBudget !== undefined ? { tokens: tokenBudget - usage.totalTokens } : {}),
    // An unknown cost never reaches the cost budget: nothing to pass down then.
    ...(costBudgetUsd !== undefined && cost !== undefined ? { costUsd: costBudgetUsd - cost } : {}),
  };
}

/** `left` less `spent` (an unknown cost counts as none, as it never reaches the budget). */
export function lessSpent(left: BudgetLeft, spent: TokenUsage): BudgetLeft {
  return {
    ...(left.tokens !== undefined ? { tokens: left.tokens - spent.totalTokens } : {}),
    ...(left.costUsd !== undefined ? { costUsd: left.costUsd - (knownCost(spent) ?? 0) } : {}),
  };
}

/** Whether nothing is left of some budget. */
export function isSpent(left: BudgetLeft): boolean {
  return (left.tokens !== undefined && left.tokens <= 0) || (left.costUsd !== undefined && left.costUsd <= 0);
}

/** The smallest cost budget a state keeps (its schema wants a positive number). */
const LEAST_COST_USD = 1e-9;
/** The largest cost budget the agent input takes. */
const MOST_COST_USD = 1_000_000;

/**
 * A budget left as the `limits` of a nested agent: whole tokens, at least one token and a
 * positive cost within what the agent input takes (a budget already spent is given as the
 * least there is, so the agent stops at its first count).
 */
export function asLimits(left: BudgetLeft): { tokenBudget?: number; costBudgetUsd?: number } {
  return {
    ...(left.tokens !== undefined ? { tokenBudget: Math.max(1, Math.floor(left.tokens)) } : {}),
    ...(left.costUsd !== undefined
      ? { costBudgetUsd: Math.min(MOST_COST_USD, Math.max(LEAST_COST_USD, left.costUsd)) }
      : {}),
  };
}
