/**
 * `cairn ls` shows what each agent tree spent, read from the `AgentTokens` / `AgentCostUsd`
 * search attributes: tokens and cost at the configured price, and an unknown cost (a model the
 * price table does not list) as unknown — never as $0 — in the text and in `--json`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentSummary } from '../../client/agents/agent-client';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent } from '../harness/agents';
import { plan, step } from '../harness/plans';
import { runCairn } from '../harness/cairn-cli';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

test("cairn ls shows tokens and cost, and an unpriced agent's cost as unknown", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ls-spend-'));
  const prices = join(dir, 'prices.json');
  writeFileSync(prices, JSON.stringify({ 'scripted-model': { prompt: 2, completion: 8 } }));
  const config = testConfig(bed.llm, { CAIRN_PRICES_FILE: prices, CAIRN_WORKSPACE: dir });
  const env = { CAIRN_TASK_QUEUE: config.taskQueue, CAIRN_WORKSPACE: dir };
  const usage = (promptTokens: number, completionTokens: number) => ({ usage: { promptTokens, completionTokens } });
  // Both agents get the same replies: 3400 prompt and 900 completion tokens in all.
  const twice = <T>(value: T): T[] => [value, value];
  bed.llm.respondWith(
    byRoute({
      plan: twice(reply.json(plan([step('s1')]), usage(1000, 500))),
      'step:s1': twice(reply.toolCalls([{ name: 'finish_step', arguments: { result: 'r1' } }], usage(2000, 300))),
      summary: twice(reply.text('summary', usage(400, 100))),
    }),
  );
  await withWorker(config, async () => {
    const priced = await startAgent(bed.client, config, { task: 'Priced spend' });
    const unpriced = await startAgent(bed.client, config, { task: 'Unpriced spend', model: { name: 'mystery-model' } });
    await Promise.all([priced.result(), unpriced.result()]);

    // Visibility catches up asynchronously: wait until ls sees both agents' final spend.
    const ours = await waitUntil('ls sees both agents spend', async () => {
      const listed = await runCairn(['ls', '--json'], env);
      expect(listed.code).toBe(0);
      const all = JSON.parse(listed.stdout) as AgentSummary[];
      const a = all.find((x) => x.id === priced.workflowId);
      const b = all.find((x) => x.id === unpriced.workflowId);
      return a?.phase === 'completed' && b?.phase === 'completed' && a.spend && b.spend ? { a, b } : undefined;
    });
    // (3400 × $2 + 900 × $8) per million tokens.
    expect(ours.a.spend?.tokens).toBe(4300);
    expect(ours.a.spend?.costUsd).toBeCloseTo(0.014, 10);
    expect(ours.b.spend).toEqual({ tokens: 4300, costUsd: null });

    const text = await runCairn(['ls'], env);
    expect(text.code).toBe(0);
    const line = (id: string) => text.stdout.split('\n').find((l) => l.startsWith(id)) ?? '';
    expect(line(priced.workflowId)).toContain('  4300 tok $0.0140');
    expect(line(unpriced.workflowId)).toContain('  4300 tok cost unknown');
    expect(line(unpriced.workflowId)).not.toContain('$');
  });
});
