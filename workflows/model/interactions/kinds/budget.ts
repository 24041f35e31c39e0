/**
 * `budget`: the tree's usage reached a budget. The answer is `{ decision: raise | stop,
 * tokenBudget?, costBudgetUsd? }`: `raise` needs a new token budget above the tokens already used
 * and/or a new cost budget above the cost so far, and neither above its ceiling when the agent has
 * one (`limits.maxTokenBudget`, `maxCostBudgetUsd`). Expired, the agent stops. Pure.
 */
import { z } from 'zod';
import { STEERING_ROLES, accept, decision, expected, invalid } from './answer-rules';
import { defineKind } from './kind-module';

export const budget = defineKind({
  kind: 'budget',
  spec: z.object({
    kind: z.literal('budget'),
    prompt: z.string(),
    usedTokens: z.number(),
    /** The token budget in force, when there is one. */
    tokenBudget: z.number().optional(),
    /** The cost so far in US dollars; null when unknown (a model without a price). */
    costUsd: z.number().nullable().optional(),
    /** The cost budget in force, when there is one. */
    costBudgetUsd: z.number().optional(),
    /** The most a raise may set (`limits.maxTokenBudget`; a thread's turn: what the thread has left). */
    maxTokenBudget: z.number().optional(),
    /** The most a raise may set the cost budget to (`limits.maxCostBudgetUsd`). */
    maxCostBudgetUsd: z.number().optional(),
  }),
  answer: z.object({
    decision: z.enum(['raise', 'stop']),
    tokenBudget: z.number().optional(),
    costBudgetUsd: z.number().optional(),
  }),
  incoming: {
    schema: z.object({
      decision: decision(['raise', 'stop']),
      tokenBudget: z.number(expected('a number')).int('must be a whole number').optional(),
      costBudgetUsd: z.number(expected('a number')).optional(),
    }),
    shape: '{ decision: raise | stop, tokenBudget?, costBudgetUsd? }',
    key: 'decision',
  },
  answerRoles: { family: 'budget', roles: z.enum(STEERING_ROLES) },
  expire: () => ({ decision: 'stop' as const }),
  check: (spec, { decision, tokenBudget, costBudgetUsd }) => {
    if (decision === 'stop') return accept({ decision });
    if (tokenBudget === undefined && costBudgetUsd === undefined) {
      return invalid('tokenBudget', 'tokenBudget: a raise needs the new budget (tokenBudget or costBudgetUsd)');
    }
    if (tokenBudget !== undefined && tokenBudget <= spec.usedTokens) {
      return invalid('tokenBudget', `tokenBudget: must be greater than the ${spec.usedTokens} tokens already used`);
    }
    // Past the ceiling would spend what is not the agent's: a thread's turn, the thread's other turns' share.
    if (tokenBudget !== undefined && spec.maxTokenBudget !== undefined && tokenBudget > spec.maxTokenBudget) {
      return invalid('tokenBudget', `tokenBudget: at most ${spec.maxTokenBudget} (the most this agent may be given)`);
    }
    if (costBudgetUsd !== undefined && spec.maxCostBudgetUsd !== undefined && costBudgetUsd > spec.maxCostBudgetUsd) {
      return invalid(
        'costBudgetUsd',
        `costBudgetUsd: at most $${spec.maxCostBudgetUsd} (the most this agent may be given)`,
      );
    }
    const spent = spec.costUsd ?? 0;
    if (costBudgetUsd !== undefined && costBudgetUsd <= spent) {
      return invalid('costBudgetUsd', `costBudgetUsd: must be greater than the $${spent} already spent`);
    }
    return accept({
      decision,
      ...(tokenBudget !== undefined ? { tokenBudget } : {}),
      ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
    });
  },
});
