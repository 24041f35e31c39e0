/**
 * A thread's title and the folding of its old turns (docs/contracts.md#threads), against a real
 * Temporal server and the scripted model, asserted from its request log, the `thread` query, the
 * thread list (the workflow's memo) and the runs' histories: one `title` call after the first
 * message; past `compressAtChars` the oldest turns are folded into a `compress` summary that the
 * next chat call hears instead of them, carried across continue-as-new (both kept as histories
 * and carries of this release); a failed `compress` or an empty `title` leaves the mechanical ones.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { ThreadClient } from '../../client/threads/thread-client';
import type { ThreadView } from '../../workflows/contract/thread-contract';
import { readThreadCarry, THREAD_CARRY_VERSION } from '../../workflows/thread/thread-carry';
import type { threadWorkflow } from '../../workflows/thread/thread-workflow';
import { defaultPayloadConverter } from '@temporalio/common';
import { decompressPayload } from '../../temporal/payloads/compression-codec';

const bed = agentTestbed();
const threads = () => new ThreadClient(bed.client, bed.config.taskQueue);

/** A text of exactly `size` characters starting with `head`. */
const sized = (head: string, size: number): string =>
  `${head} ${'lorem ipsum dolor sit amet '.repeat(20)}`.slice(0, size);

/** The text of every message of a request, joined. */
const wholeText = (messages: { content?: unknown }[]): string =>
  messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

function waitForThread(id: string, what: string, holds: (view: ThreadView) => boolean): Promise<ThreadView> {
  return waitUntil(what, async () => {
    const view = await threads().get(id);
    return holds(view) ? view : undefined;
  });
}

/** The run ids of a thread, oldest first, following its continue-as-new chain from `firstRun`. */
async function runChain(id: string, firstRun: string): Promise<string[]> {
  const runs = [firstRun];
  for (;;) {
    const handle = bed.client.workflow.getHandle(id, runs.at(-1));
    const history = await handle.fetchHistory();
    const next = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
    if (!next) return runs;
    runs.push(next);
  }
}

/** The carry a run started with (its start event's second argument), if any. */
async function carryOfRun(handle: WorkflowHandle): Promise<unknown> {
  const history = await handle.fetchHistory();
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[1];
  return payload ? defaultPayloadConverter.fromPayload(decompressPayload(payload)) : undefined;
}

test('the first message gets one title call (memo, list and query); past the threshold the oldest turns fold into a compress summary the next chat hears instead, carried to the next run', async () => {
  // 100-character messages and replies: 200 characters a turn. At 500, the third turn passes it
  // (600) and the two oldest fold, leaving 200 (at most half of 500).
  const texts = [1, 2, 3, 4].map((n) => sized(`message ${n}:`, 100));
  const replies = [1, 2, 3, 4].map((n) => sized(`reply ${n}:`, 100));
  const summary = 'The user sent two messages about lorem ipsum; the agent answered both.';
  bed.llm.respondWith(
    byRoute({
      title: [reply.text('"Lorem ipsum, at length"')],
      chat: replies.map((r) => reply.text(r)),
      compress: [reply.text(summary)],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({}, { settings: { compressAtChars: 500, rollOverEvents: 1 } });
    const firstRun = (await bed.client.workflow.getHandle(id).describe()).runId;
    for (const text of texts) await client.send(id, { text, kind: 'chat' });
    const view = await waitForThread(id, 'the summary and the title', (v) => v.summary !== undefined);

    // The title: one call, instructions then the first message alone; cleaned of its quotes.
    const titled = bed.llm.requestsFor('title');
    expect(titled).toHaveLength(1);
    expect(titled[0]?.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(titled[0]?.body.messages[1]?.content).toBe(texts[0]);
    // Asked only once the first message is answered (a model server with one slot replies
    // first): the first run's second model call is scheduled after its first completed.
    const events = (await bed.client.workflow.getHandle(id, firstRun).fetchHistory()).events ?? [];
    const at = (type: temporal.api.enums.v1.EventType, nth: number) =>
      events.filter((e) => e.eventType === type)[nth]?.eventId?.toNumber() ?? Number.NaN;
    const { EventType } = temporal.api.enums.v1;
    expect(at(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, 1)).toBeGreaterThan(
      at(EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 0),
    );
    expect(view.title).toBe('Lorem ipsum, at length');
    const listed = await waitUntil('the list shows the title', async () => {
      const row = (await client.list()).find((t) => t.id === id);
      return row?.title === 'Lorem ipsum, at length' ? row : undefined;
    });
    expect(listed.status).toBe('RUNNING');
    // The Temporal UI's current details name it too (each run sets them again).
    const metadata = await bed.client.workflow
      .getHandle(id)
      .query<temporal.api.sdk.v1.IWorkflowMetadata>('__temporal_workflow_metadata');
    expect(metadata.currentDetails).toMatch(/^\*\*Lorem ipsum, at length\*\* · \d+ turns\n/);
    expect(metadata.currentDetails).toContain('Waiting on: ');

    // One fold, after the third turn, of the two oldest: the request names them, not the third.
    const compressed = bed.llm.requestsFor('compress');
    expect(compressed).toHaveLength(1);
    const asked = wholeText(compressed[0]?.body.messages ?? []);
    expect(asked).toContain(texts[0]);
    expect(asked).toContain(replies[1]);
    expect(asked).not.toContain(texts[2]);
    const chats = bed.llm.requestsFor('chat');
    expect(chats.filter((r) => r.index < (compressed[0]?.index ?? 0))).toHaveLength(3);
    expect(view.summary).toEqual({ text: summary, turns: 2, through: 'msg-2' });
    expect(view.turns.map((t) => t.messageId)).toEqual(['msg-3', 'msg-4']);

    // The fourth chat hears the summary and the third turn, not the folded ones.
    const fourth = chats[3]?.body.messages ?? [];
    expect(fourth[0]?.content).toContain(summary);
    expect(fourth.map((m) => m.content)).toEqual([expect.any(String), texts[2], replies[2], texts[3]]);
    expect(wholeText(fourth)).not.toContain(texts[0]);

    // Continue-as-new between turns: each run hands the next a carry of this release, title and
    // (once folded) summary included; the last run took every message.
    const runs = await waitUntil('a run that took all four messages', async () => {
      const chain = await runChain(id, firstRun);
      const last = await carryOfRun(bed.client.workflow.getHandle(id, chain.at(-1)));
      return last !== undefined && readThreadCarry(last).nextMessage === 5 ? chain : undefined;
    });
    const handle = (run: string) => bed.client.workflow.getHandle<typeof threadWorkflow>(id, run);
    const read = (await Promise.all(runs.slice(1).map((run) => carryOfRun(handle(run))))).map(readThreadCarry);
    expect(read.every((c) => c.version === THREAD_CARRY_VERSION && c.title === 'Lorem ipsum, at length')).toBe(true);
    const folded = read.findIndex((c) => c.summary !== undefined);
    expect(folded).toBeGreaterThanOrEqual(0);
    expect(read.slice(folded).every((c) => c.summary?.text === summary && c.summary.turns === 2)).toBe(true);
    // The run that folded (it received no summary, handed one on) is kept with its carry.
    const folder = runs[folded] ?? '';
    expect(await carryOfRun(handle(folder)).then((c) => c && readThreadCarry(c).summary)).toBeUndefined();
    await recordHistory('thread-title', handle(runs[0] ?? ''));
    await recordHistory('thread-title-after-reply', handle(runs[0] ?? ''));
    await recordHistory('thread-compress', handle(folder));
  });
});

test('a compress call that fails leaves a mechanical summary; the newest turn never folds; an empty title reply leaves the first message as the title', async () => {
  const texts = [1, 2, 3].map((n) => sized(`note ${n}:`, 300));
  bed.llm.respondWith(
    byRoute({
      title: [reply.text('  \n ')],
      chat: [1, 2, 3, 4].map((n) => reply.text(`ok ${n}`)),
      // 400 is not retried: the call fails for good at once.
      compress: [reply.error(400, 'no summaries today'), reply.error(400, 'nor tomorrow')],
    }),
  );
  await withWorker(bed.config, async () => {
    // The threshold as an operator sets it for every thread opened (CAIRN_THREAD_COMPRESS_CHARS).
    const client = new ThreadClient(bed.client, bed.config.taskQueue, true, undefined, { compressAtChars: 600 });
    const { id } = await client.open({});
    // 304 characters a turn: after the second, 608 > 600. Folding down to half (300) would take
    // both, but the newest stays — the next message may reuse it.
    for (const text of texts.slice(0, 2)) await client.send(id, { text, kind: 'chat' });
    const first = await waitForThread(id, 'the first fold', (v) => v.summary !== undefined);
    expect(first.summary).toMatchObject({ turns: 1, through: 'msg-1' });
    expect(first.turns.map((t) => t.messageId)).toEqual(['msg-2']);
    await recordHistory('thread-fold-keeps-newest', bed.client.workflow.getHandle(id));
    // After the third, 608 again: the second folds, the third stays.
    await client.send(id, { text: texts[2] ?? '', kind: 'chat' });
    const view = await waitForThread(id, 'the second fold', (v) => v.summary?.through === 'msg-2');
    expect(bed.llm.requestsFor('compress')).toHaveLength(2);
    expect(view.title).toBe(texts[0]?.slice(0, 79) + '…');
    expect(view.summary).toMatchObject({ turns: 2, through: 'msg-2' });
    expect(view.turns.map((t) => t.messageId)).toEqual(['msg-3']);
    expect(view.summary?.text.split('\n')).toEqual([
      `[msg-1] user: ${texts[0]?.slice(0, 200)}…`,
      '  reply: ok 1',
      `[msg-2] user: ${texts[1]?.slice(0, 200)}…`,
      '  reply: ok 2',
    ]);
    await client.send(id, { text: 'and now?', kind: 'chat' });
    const last = bed.llm.requestsFor('chat').at(-1)?.body.messages ?? [];
    expect(last[0]?.content).toContain(`[msg-1] user: ${texts[0]?.slice(0, 200)}…`);
  });
});

test('on a spent budget, rejected messages cause no compress call: the fold that is due is mechanical, and their text never makes one due', async () => {
  const first = sized('a long first message:', 600);
  const rejected = [2, 3, 4, 5, 6].map((n) => sized(`refused ${n}:`, 200));
  bed.llm.respondWith(
    byRoute({
      chat: [reply.text('ok', { usage: { promptTokens: 250, completionTokens: 50 } })],
      title: [reply.text('Budget spent', { usage: { promptTokens: 0, completionTokens: 0 } })],
    }),
  );
  await withWorker(bed.config, async () => {
    const client = threads();
    const { id } = await client.open({}, { settings: { compressAtChars: 500, budget: { tokens: 300 } } });
    // The one reply spends the whole budget (300 tokens).
    expect(await client.send(id, { text: first, kind: 'chat' })).toMatchObject({ disposition: 'answered' });
    await waitForThread(id, 'the title', (v) => v.title !== undefined);
    for (const text of rejected)
      expect(await client.send(id, { text, kind: 'chat' })).toMatchObject({ disposition: 'rejected' });
    // Past the threshold with the second message (the first turn's 602 characters), the first
    // turn folds — by the mechanical summary: the budget is spent.
    const view = await waitForThread(
      id,
      'every message folded or kept',
      (v) => v.summary !== undefined && v.summary.turns + v.turns.length === 6,
    );
    expect(bed.llm.requestsFor('compress')).toEqual([]);
    expect(view.summary).toMatchObject({ turns: 1, through: 'msg-1' });
    expect(view.summary?.text.startsWith(`[msg-1] user: ${first.slice(0, 200)}…`)).toBe(true);
    // The rejected messages' 1,000 characters made no further fold due.
    expect(view.turns.map((t) => [t.messageId, t.status])).toEqual(
      [2, 3, 4, 5, 6].map((n) => [`msg-${n}`, 'rejected']),
    );
    expect(view.usage.totalTokens).toBe(300);
  });
});
