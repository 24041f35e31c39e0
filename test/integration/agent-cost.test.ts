/**
 * Cost from the configured price table (CAIRN_PRICES_FILE): each call's cost is its tokens at
 * its model's prices, summed per step and per agent; a model without a price has an unknown
 * cost (null), never 0; `limits.costBudgetUsd` holds the agent like `tokenBudget` does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply, type ScriptedUsage } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { plan, step } from '../harness/plans';
import { expectNoNewRequests } from '../harness/no-new-requests';
import { testConfig, withWorker } from '../harness/test-env';

/** Several times what a call takes to reach the fake once a step starts it. */
const QUIET_WINDOW_MS = 1000;
const bed = agentTestbed();

/** A price table file pricing the fake's model at $2 / $8 per million prompt / completion tokens. */
function pricesFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'prices-')), 'prices.json');
  writeFileSync(path, JSON.stringify({ 'scripted-model': { prompt: 2, completion: 8, cachedPrompt: 1 } }));
  return path;
}

const usage = (promptTokens: number, completionTokens: number): ScriptedUsage => ({ promptTokens, completionTokens });

/** plan 1000/500, s1 2000/300, summary 400/100 tokens. */
function scriptOneStep(): void {
  bed.llm.respondWith(
    byRoute({
      plan: [reply.json(plan([step('s1')]), { usage: usage(1000, 500) })],
      'step:s1': [reply.toolCalls([{ name: 'finish_step', arguments: { result: 'r1' } }], { usage: usage(2000, 300) })],
      summary: [reply.text('summary', { usage: usage(400, 100) })],
    }),
  );
}

test('cost from the price table equals the hand-computed value, per step and per agent', async () => {
  const config = testConfig(bed.llm, { CAIRN_PRICES_FILE: pricesFile() });
  scriptOneStep();
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'priced' });
    const result = await handle.result();
    const state = await stateOf(handle);
    // (1000·2 + 500·8) + (2000·2 + 300·8) + (400·2 + 100·8) = 14000 dollars per million tokens.
    expect(state.usage.costUsd).toBeCloseTo(0.014, 10);
    expect(result.usage.costUsd).toBeCloseTo(0.014, 10);
    expect(state.steps[0]?.usage.costUsd).toBeCloseTo(0.0064, 10);
    expect(state.usage.totalTokens).toBe(4300);
  });
});

test('a model without a price has an unknown cost, never 0', async () => {
  scriptOneStep();
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'unpriced' });
    await handle.result();
    const state = await stateOf(handle);
    expect(state.usage.costUsd).toBeNull();
    expect(state.steps[0]?.usage.costUsd).toBeNull();
    expect(state.usage.totalTokens).toBe(4300);
  });
});

test('costBudgetUsd holds the agent like the token budget: nothing starts until a raise', async () => {
  const config = testConfig(bed.llm, { CAIRN_PRICES_FILE: pricesFile() });
  scriptOneStep();
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'capped', limits: { costBudgetUsd: 0.005 } });
    const budget = await waitForInteraction(handle, 'budget');
    expect(budget.costUsd).toBeCloseTo(0.006, 10); // the plan call alone
    expect(budget.costBudgetUsd).toBe(0.005);
    expect(budget.tokenBudget).toBeUndefined();
    expect((await waitForState(handle, 'paused', (s) => s.phase === 'paused')).hold?.reasons).toEqual(['budget']);
    await expectNoNewRequests(bed.llm, 1, QUIET_WINDOW_MS); // no step started
    await answer(handle, budget.id, { decision: 'raise', costBudgetUsd: 1 });
    expect((await handle.result()).status).toBe('completed');
    const state = await stateOf(handle);
    expect(state.costBudgetUsd).toBe(1);
    expect(state.usage.costUsd).toBeCloseTo(0.014, 10);
  });
});

test('an unknown cost never reaches costBudgetUsd: an agent without prices runs to the end under a tiny one', async () => {
  scriptOneStep();
  await withWorker(bed.config, async () => {
    const limits = { costBudgetUsd: 0.000001 }; // any priced call would cross it
    const handle = await startAgent(bed.client, bed.config, { task: 'unpriced, capped', limits });
    expect((await handle.result()).status).toBe('completed');
    const state = await stateOf(handle);
    expect(state.usage.costUsd).toBeNull();
    expect(state.usage.totalTokens).toBe(4300);
    expect(state.interactions.filter((i) => i.kind === 'budget')).toEqual([]);
    expect(state.events.filter((e) => e.type === 'agent.paused')).toEqual([]);
  });
});
