/**
 * Size rules for what tools give back: the model sees long tool output (and a long `model`
 * sub-call answer) cut to its first and last 1000 characters with the cut marked, short output
 * whole; and a run whose tools return megabytes, over a long conversation, keeps every payload
 * in every history far from Temporal's 2 MB limit.
 */
import { decompressPayload } from '../../temporal/payloads/compression-codec';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { RecordedRequest } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

/** `emit { size }`: returns `size` characters whose head, middle and tail differ. */
const emitTool = defineTool({
  name: 'emit',
  description: 'Return a text of the given size.',
  effect: 'read',
  input: z.object({ size: z.number().int().min(1) }),
  run: ({ size }) => Promise.resolve(textOf(size)),
});

/** `size` characters: `H…` for the first 1000, `M…` in the middle, `T…` for the last 1000. */
function textOf(size: number): string {
  if (size <= 2000) return 'S'.repeat(size);
  return `${'H'.repeat(999)}<${'M'.repeat(size - 2000)}>${'T'.repeat(999)}`;
}

function toolMessage(request: RecordedRequest | undefined, callId: string): string {
  const message = request?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : '';
}

const stepRequests = (stepId: string) =>
  bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === stepId && r.headers['x-cairn-purpose'] === 'step');

test('the model sees long tool output as head + tail with the cut marked, short output whole', async () => {
  const long = textOf(5000);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCalls([
          { id: 'long', name: 'emit', arguments: { size: 5000 } },
          { id: 'edge', name: 'emit', arguments: { size: 2000 } },
          { id: 'sub', name: 'model', arguments: { task: 'Write at length' } },
        ]),
        finish('read it'),
      ],
      model: [reply.text(long)],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(
    bed.config,
    async () => {
      await (await startAgent(bed.client, bed.config, { task: 'read long output' })).result();
      const second = stepRequests('s1')[1];
      for (const id of ['long', 'sub']) {
        const seen = toolMessage(second, id);
        expect(seen.startsWith(`${'H'.repeat(999)}<`)).toBe(true);
        expect(seen.endsWith(`>${'T'.repeat(999)}`)).toBe(true);
        expect(seen).not.toContain('M');
        const marker = seen.slice(1000, -1000);
        expect(marker).toMatch(/cut/);
        expect(marker).toContain('3000');
        expect(marker).toContain('5000');
        expect(marker.length).toBeLessThan(100);
      }
      expect(toolMessage(second, 'edge')).toBe('S'.repeat(2000));
    },
    [emitTool],
  );
});

/** Sizes of every payload in a history, with the type of the event carrying it. */
/**
 * Every payload's size as the workflow sees it (decompressed: payloads are compressed by
 * default, and a size limit that holds uncompressed holds with compression off too).
 */
function payloadSizes(history: temporal.api.history.v1.IHistory): { bytes: number; event: string }[] {
  const found: { bytes: number; event: string }[] = [];
  const walk = (value: unknown, event: string): void => {
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return;
    if ('data' in value && value.data instanceof Uint8Array && 'metadata' in value) {
      found.push({ bytes: decompressPayload(value as Payload).data?.length ?? 0, event });
      return;
    }
    for (const child of Object.values(value)) walk(child, event);
  };
  for (const e of history.events ?? []) walk(e, temporal.api.enums.v1.EventType[e.eventType ?? 0] ?? '?');
  return found;
}

const MB = 1024 * 1024;
/** The server warns from 512 KiB on; a healthy run stays well below. */
const FAR_BELOW_LIMIT = 512 * 1024;

test('megabytes of tool output over a long conversation: every payload stays far below 2 MB', async () => {
  const rounds = 30;
  const big = reply.toolCalls([
    { name: 'emit', arguments: { size: 3 * MB } },
    { name: 'emit', arguments: { size: 3 * MB } },
  ]);
  const longResult = 'R'.repeat(100_000);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2', ['s1'])]))],
      'step:s1': [...Array.from({ length: rounds - 1 }, () => big), finish(longResult)],
      'step:s2': [big, finish('second')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, {
        task: 'a lot of output',
        // The same call every round, and a conversation far over the default context window: this
        // test is about payload sizes, so the loop guards and the context cut are set out of the way.
        limits: { maxStepRounds: rounds, maxIdenticalCalls: 2 * rounds },
        model: { contextTokens: 10_000_000 },
      });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      // The conversation really grew: the last round's request carries every earlier round.
      const lastRound = stepRequests('s1').at(-1);
      expect(lastRound?.body.messages.filter((m) => m.role === 'tool')).toHaveLength(2 * (rounds - 1));
      expect(JSON.stringify(lastRound?.body.messages).length).toBeGreaterThan(100_000);

      const ids = [handle.workflowId, `${handle.workflowId}/step-s1`, `${handle.workflowId}/step-s2`];
      const sizes = [];
      for (const id of ids) sizes.push(...payloadSizes(await bed.client.workflow.getHandle(id).fetchHistory()));
      const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
      process.stdout.write(`largest payload: ${largest.bytes} bytes (${largest.event})\n`);
      expect(sizes.length).toBeGreaterThan(100);
      expect(largest.bytes).toBeLessThan(FAR_BELOW_LIMIT);
      // The long step result does travel (to the dependent step and the summary), once per payload.
      expect(largest.bytes).toBeGreaterThanOrEqual(longResult.length);
    },
    [emitTool],
  );
}, 120_000);
