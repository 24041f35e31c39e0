/**
 * History stays flat per ReAct round: once a conversation outgrows the inline limit it travels
 * to the LLM activity by reference, so each round adds one small input and one reply — not the
 * whole conversation again. Measured on a real step of 40 rounds: the first rounds carry the
 * conversation inline and grow by design, so only the rounds after them are compared, and
 * their cost may not trend upwards by more than a few bytes a round. (Passing the conversation
 * by value, or any field that grows with it, makes round n cost O(n).)
 */
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { lookupTool } from '../../testkit/lookup-tool';
import { withWorker } from '../harness/test-env';
import type { LlmCallInput } from '../../workflows/model/llm/llm-call-schema';
import { decompressPayload } from '../../temporal/payloads/compression-codec';

const bed = agentTestbed();
const ROUNDS = 40;
const { HistoryEvent } = temporal.api.history.v1;
/** Rounds with the conversation by reference the test needs, to see a trend at all. */
const MIN_BY_REFERENCE = 15;
/** Allowed upward trend per by-reference round; a field growing 20 bytes a round fails. */
const MAX_BYTES_PER_ROUND_TREND = 5;

/**
 * The median of the slopes between every two points (Theil–Sen): the trend of `ys` per step,
 * which one slow round (a retried workflow task, say) cannot tip the way it tips a mean.
 */
function medianSlope(ys: number[]): number {
  const slopes = ys.flatMap((yi, i) => ys.slice(i + 1).map((yj, k) => (yj - yi) / (k + 1))).sort((a, b) => a - b);
  const mid = slopes.length / 2;
  return slopes.length % 2 === 1 ? (slopes[Math.floor(mid)] ?? 0) : ((slopes[mid - 1] ?? 0) + (slopes[mid] ?? 0)) / 2;
}

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
      // Cumulative bytes at each callLlm schedule (the start of each round), and whether that
      // call carried the conversation inline.
      const calls: { bytes: number; inline: boolean }[] = [];
      let bytes = 0;
      for (const event of events) {
        bytes += HistoryEvent.encode(event).finish().length;
        const scheduled = event.activityTaskScheduledEventAttributes;
        if (scheduled?.activityType?.name !== 'callLlm') continue;
        const payload = scheduled.input?.payloads?.[0];
        const input = payload
          ? defaultPayloadConverter.fromPayload<LlmCallInput>(decompressPayload(payload))
          : undefined;
        calls.push({ bytes, inline: input?.messages !== undefined });
      }
      expect(calls).toHaveLength(ROUNDS);
      const perRound = calls.slice(1).map((c, i) => c.bytes - (calls[i]?.bytes ?? 0));
      // Round i runs from call i to call i + 1; it is by reference when both calls are.
      const byReference = perRound.filter((_, i) => !calls[i]?.inline && !calls[i + 1]?.inline);
      const inlineRounds = perRound.length - byReference.length;
      expect(calls.slice(inlineRounds).every((c) => !c.inline)).toBe(true); // inline only at first
      expect(byReference.length).toBeGreaterThanOrEqual(MIN_BY_REFERENCE);
      const trend = medianSlope(byReference);
      process.stdout.write(
        `history bytes per round: ${inlineRounds} inline rounds up to ${Math.max(...perRound.slice(0, inlineRounds))}, ` +
          `then ${byReference.length} by reference ${Math.min(...byReference)}-${Math.max(...byReference)} ` +
          `(trend ${trend.toFixed(1)} bytes/round)\n`,
      );
      expect(trend).toBeLessThanOrEqual(MAX_BYTES_PER_ROUND_TREND);
      expect(Math.max(...perRound)).toBeLessThan(8_000);
    },
    [lookup.tool],
  );
});
