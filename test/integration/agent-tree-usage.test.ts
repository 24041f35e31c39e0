/**
 * One meter per agent tree: the agent's total counts its own calls, its steps' calls, a `model`
 * sub-call and a nested `sub_agent`'s whole tree — exactly the usage the model reported.
 */
import { reply, type ScriptedUsage } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf } from '../harness/agents';
import { plan, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

const usage = (promptTokens: number, completionTokens: number): { usage: ScriptedUsage } => ({
  usage: { promptTokens, completionTokens },
});
const finishWith = (result: string, tokens: number) =>
  reply.toolCalls([{ name: 'finish_step', arguments: { result } }], usage(tokens, tokens));

test('the total counts a model sub-call and a nested sub-agent, equal to the sum the model reported', async () => {
  bed.llm.respondWith(
    byRoute({
      // The top agent's plan, then the nested agent's.
      plan: [reply.json(plan([step('s1')]), usage(11, 7)), reply.json(plan([step('n1')]), usage(13, 5))],
      'step:s1': [
        reply.toolCalls(
          [
            { name: 'model', arguments: { task: 'sub-call' } },
            { name: 'sub_agent', arguments: { task: 'nested work' } },
          ],
          usage(17, 3),
        ),
        finishWith('r1', 19),
      ],
      model: [reply.text('model answer', usage(23, 2))],
      'step:n1': [finishWith('nested result', 29)],
      // The nested agent's summary, then the top agent's.
      summary: [reply.text('nested summary', usage(31, 1)), reply.text('top summary', usage(37, 4))],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'a tree', limits: { tokenBudget: 1_000_000 } });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'top summary' });
    const state = await stateOf(handle);
    const reported = bed.llm.requests.reduce((sum, r) => sum + (r.reportedTokens ?? 0), 0);
    expect(bed.llm.requests).toHaveLength(8);
    expect(state.usage.totalTokens).toBe(reported);
    // s1: its two rounds, the model sub-call and the nested agent's plan, step and summary.
    expect(state.steps[0]?.usage.totalTokens).toBe(20 + 38 + 25 + 18 + 58 + 32);
  });
});
