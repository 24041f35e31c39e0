/**
 * An agent held by its token budget, for the tests that answer the `budget` interaction through
 * each channel: a one-step plan whose first round spends past `limits.tokenBudget` (100), so
 * the agent is held with the interaction open. Scripted for both answers: after a `raise`, the
 * step finishes in its next round and the summary follows; after a `stop` nothing more is asked.
 */
import { reply, type ScriptedUsage } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { ScriptedLlm } from '../fake-llm/scripted-llm';
import type { Interaction } from '../../workflows/model/interactions/interaction-types';
import { startAgent, waitForInteraction, waitForState, type AgentHandle } from './agents';
import { plan, step } from './plans';
import { expectNoNewRequests } from './no-new-requests';
import type { AgentTestbed } from './agent-testbed';

/** The budget the agent starts with, and what it has used when held (plan 10 + round 200). */
export const BUDGET = { tokenBudget: 100, usedWhenHeld: 210 } as const;

/** Requests the fake has received when the agent is held: the plan and the step's first round. */
export const REQUESTS_WHEN_HELD = 2;

const usage = (total: number): ScriptedUsage => ({ promptTokens: total / 2, completionTokens: total / 2 });

/** Scripts the crossing and, for a raise, what follows it (the step's finish and the summary). */
export function scriptBudgetCrossing(llm: ScriptedLlm): void {
  llm.respondWith(
    byRoute({
      plan: [reply.json(plan([step('a')]), { usage: usage(10) })],
      'step:a': [
        // A tool the step does not have: the step goes on to another round — once it may.
        reply.toolCalls([{ name: 'no_such_tool', arguments: {} }], { usage: usage(200) }),
        reply.toolCalls([{ name: 'finish_step', arguments: { result: 'result-a' } }], { usage: usage(10) }),
      ],
      summary: [reply.text('done within the raised budget', { usage: usage(10) })],
    }),
  );
}

/**
 * Starts the agent and waits until the budget holds it: the `budget` interaction is open, the
 * phase is `paused` for the budget, and no new model call starts (watched for `quietMs`).
 */
export async function startHeldOnBudget(
  bed: AgentTestbed,
  quietMs = 500,
): Promise<{ handle: AgentHandle; budget: Extract<Interaction, { kind: 'budget' }> }> {
  scriptBudgetCrossing(bed.llm);
  const handle = await startAgent(bed.client, bed.config, {
    task: 'spend past the budget',
    limits: { tokenBudget: BUDGET.tokenBudget },
  });
  const budget = await waitForInteraction(handle, 'budget');
  expect(budget).toMatchObject({ usedTokens: BUDGET.usedWhenHeld, tokenBudget: BUDGET.tokenBudget });
  const held = await waitForState(handle, 'held by the budget', (s) => s.phase === 'paused');
  expect(held.hold?.reasons).toEqual(['budget']);
  await expectNoNewRequests(bed.llm, REQUESTS_WHEN_HELD, quietMs);
  return { handle, budget };
}
