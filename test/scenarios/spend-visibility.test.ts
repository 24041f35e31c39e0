/**
 * The spend search attributes: `AgentTokens` (Int) and `AgentCostUsd` (Double) are upserted at
 * step boundaries and when the agent ends, and the real `temporal` CLI finds agents by them —
 * what an operator types to list "agents that spent over $5". An unknown cost stays unset, and a
 * cost that becomes unknown mid-run is cleared rather than left at its last, too-low value.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, step } from '../harness/plans';
import { listedByTemporalCli as listed } from '../harness/temporal-cli';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

function script(): void {
  const usage = (promptTokens: number, completionTokens: number) => ({ usage: { promptTokens, completionTokens } });
  bed.llm.respondWith(
    byRoute({
      plan: [reply.json(plan([step('s1')]), usage(1000, 500))],
      'step:s1': [reply.toolCalls([{ name: 'finish_step', arguments: { result: 'r1' } }], usage(2000, 300))],
      summary: [reply.text('summary', usage(400, 100))],
    }),
  );
}

test('AgentTokens and AgentCostUsd are queryable with the temporal CLI', async () => {
  const prices = join(mkdtempSync(join(tmpdir(), 'prices-')), 'prices.json');
  writeFileSync(prices, JSON.stringify({ 'scripted-model': { prompt: 2, completion: 8 } }));
  const config = testConfig(bed.llm, { CAIRN_PRICES_FILE: prices });
  script();
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'spend visibly' });
    await handle.result();
    const id = handle.workflowId;
    // Visibility is eventually consistent: wait until the CLI sees the final values.
    await waitUntil('the spend in visibility', async () =>
      (await listed(`WorkflowId = '${id}' AND AgentTokens = 4300 AND AgentCostUsd > 0.0139`)).includes(id)
        ? true
        : undefined,
    );
    expect(await listed(`WorkflowId = '${id}' AND AgentCostUsd > 0.02`)).toEqual([]);
    expect(await listed(`WorkflowId = '${id}' AND AgentTokens < 4300`)).toEqual([]);
  });
});

test('an unknown cost leaves AgentCostUsd unset while AgentTokens counts', async () => {
  script();
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'unpriced spend' });
    await handle.result();
    const id = handle.workflowId;
    await waitUntil('the tokens in visibility', async () =>
      (await listed(`WorkflowId = '${id}' AND AgentTokens = 4300`)).includes(id) ? true : undefined,
    );
    expect(await listed(`WorkflowId = '${id}' AND AgentCostUsd IS NOT NULL`)).toEqual([]);
  });
});

test('a cost that becomes unknown mid-run clears AgentCostUsd', async () => {
  const prices = join(mkdtempSync(join(tmpdir(), 'prices-')), 'prices.json');
  writeFileSync(prices, JSON.stringify({ 'scripted-model': { prompt: 2, completion: 8 } }));
  const workspace = mkdtempSync(join(tmpdir(), 'spend-'));
  const priced = testConfig(bed.llm, { CAIRN_PRICES_FILE: prices, CAIRN_WORKSPACE: workspace });
  // The same task queue without a price table: the operator removed the model's price and restarted.
  const unpriced = { ...priced, prices: {} };
  bed.llm.respondWith(
    byRoute({
      plan: [reply.json(plan([step('a'), step('b', ['a'])]))],
      'step:a': [finish('did a')],
      // b waits for the approval of a write, so the worker can be replaced between a and b.
      'step:b': [reply.toolCall('write_file', { path: 'b.txt', content: 'B' }, 'w1'), finish('wrote b')],
      summary: [reply.text('summary')],
    }),
  );
  const handle = await withWorker(priced, async () => {
    const agent = await startAgent(bed.client, priced, { task: 'spend, then lose the price' });
    await waitForInteraction(agent, 'tool.approval', 'b');
    const id = agent.workflowId;
    await waitUntil('a known cost in visibility', async () =>
      (await listed(`WorkflowId = '${id}' AND AgentCostUsd > 0`)).includes(id) ? true : undefined,
    );
    return agent;
  });
  const totalTokens = await withWorker(unpriced, async () => {
    const approval = await waitForInteraction(handle, 'tool.approval', 'b');
    await answer(handle, approval.id, { decision: 'approve', digest: approval.digest });
    await handle.result();
    return (await stateOf(handle)).usage.totalTokens;
  });
  const id = handle.workflowId;
  await waitUntil('the final tokens in visibility', async () =>
    (await listed(`WorkflowId = '${id}' AND AgentTokens = ${totalTokens}`)).includes(id) ? true : undefined,
  );
  expect(await listed(`WorkflowId = '${id}' AND AgentCostUsd IS NOT NULL`)).toEqual([]);
});
