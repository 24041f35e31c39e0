/**
 * History stays flat per ReAct round (DESIGN §4.13): conversations travel to the LLM activity
 * by reference, so each round adds one small input and one reply — not the whole conversation
 * again. Measured on a real step of 40 rounds: the history bytes the last rounds add are no
 * more than the first rounds add. (Passing the conversation by value makes round n cost O(n).)
 */
import { temporal } from '@temporalio/proto';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, startAgent, step } from '../harness/agents';
import { lookupTool } from '../harness/lookup-tool';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();
const ROUNDS = 40;
const { HistoryEvent } = temporal.api.history.v1;

test(`history bytes per round do not grow over ${ROUNDS} rounds`, async () => {
  const lookup = lookupTool();
  const rounds = Array.from({ length: ROUNDS - 1 }, (_, i) => reply.toolCall('lookup', { key: `k${i}` }));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [...rounds, finish('done')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, {
        task: 'many rounds',
        limits: { maxStepRounds: ROUNDS },
      });
      await handle.result();
      const events = (await bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`).fetchHistory()).events ?? [];
      // Cumulative bytes at each callLlm schedule: the start of each round.
      const starts: number[] = [];
      let bytes = 0;
      for (const event of events) {
        bytes += HistoryEvent.encode(event).finish().length;
        if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'callLlm') starts.push(bytes);
      }
      expect(starts).toHaveLength(ROUNDS);
      const perRound = starts.slice(1).map((b, i) => b - (starts[i] ?? 0));
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const early = mean(perRound.slice(0, 10));
      const late = mean(perRound.slice(-10));
      process.stdout.write(
        `history bytes per round: first 10 ${early.toFixed(0)}, last 10 ${late.toFixed(0)}, max ${Math.max(...perRound)}\n`,
      );
      expect(late).toBeLessThanOrEqual(early * 1.1);
      expect(Math.max(...perRound)).toBeLessThan(8_000);
    },
    [lookup.tool],
  );
});
