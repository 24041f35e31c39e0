/**
 * The budgets in force for an agent and what its tree has left of them, read from its state and
 * its input's limits — so the hold (which tells steps what is left) and the meter (which checks
 * and asks) read the same figures without reaching each other.
 */
import { patched } from '@temporalio/workflow';
import { budgetLeft, type BudgetLeft } from '../model/llm/budget-left';
import { PATCHES } from '../base/patches';
import type { AgentState } from '../model/agent/agent-state';

/** `limits.tokenBudget` and `limits.costBudgetUsd` from the agent input. */
export interface BudgetLimits {
  tokenBudget?: number | undefined;
  costBudgetUsd?: number | undefined;
  maxTokenBudget?: number | undefined;
  maxCostBudgetUsd?: number | undefined;
}

/** The token budget in force: the last raise, else the input's, if any. */
export function tokenBudgetInForce(state: AgentState, limits: BudgetLimits): number | undefined {
  return state.tokenBudget ?? limits.tokenBudget;
}

/** The cost budget in force (US dollars): the last raise, else the input's, if any. */
export function costBudgetInForce(state: AgentState, limits: BudgetLimits): number | undefined {
  return state.costBudgetUsd ?? limits.costBudgetUsd;
}

/** Whether any budget is in force: steps then wait for each report's acknowledgement. */
export function isMetered(state: AgentState, limits: BudgetLimits): boolean {
  return tokenBudgetInForce(state, limits) !== undefined || costBudgetInForce(state, limits) !== undefined;
}

/**
 * What the tree's budget has left now, for the steps (and the nested agents they start):
 * undefined without a budget, and in runs recorded before nested budgets existed.
 */
export function treeBudgetLeft(state: AgentState, limits: BudgetLimits): BudgetLeft | undefined {
  if (!isMetered(state, limits) || !patched(PATCHES.nestedBudget)) return undefined;
  return budgetLeft(state.usage, tokenBudgetInForce(state, limits), costBudgetInForce(state, limits));
}

/**
 * Whether the budget in force that was reached is already at its ceiling (`limits.maxTokenBudget`
 * or `maxCostBudgetUsd`): no raise could be accepted, so the agent stops as a nested agent does.
 * `reached` says which budget was reached.
 */
export function atCeiling(state: AgentState, limits: BudgetLimits, reached: 'tokens' | 'cost'): boolean {
  if (reached === 'tokens') {
    const budget = tokenBudgetInForce(state, limits);
    return budget !== undefined && limits.maxTokenBudget !== undefined && budget >= limits.maxTokenBudget;
  }
  const budget = costBudgetInForce(state, limits);
  return budget !== undefined && limits.maxCostBudgetUsd !== undefined && budget >= limits.maxCostBudgetUsd;
}
