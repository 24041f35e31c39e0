/**
 * Issue 33, acceptance 2: a thread of 200 chat turns stays bounded. Against a real Temporal
 * server and the scripted model: what each chat call sends, and what each turn adds to the
 * thread's history (events and bytes, over all its runs), is flat — the last 25 turns against
 * the first 25 after the first fold, within ±10 %, judged as the step benchmark judges its
 * rounds (bench/flat-verdict.ts); `compress` calls come exactly where the threshold puts them;
 * and the thread continues as new between turns, each run reading the carry the previous handed on.
 */
import { temporal } from '@temporalio/proto';
import { defaultPayloadConverter } from '@temporalio/common';
import { judgeFlat } from '../../bench/flat-verdict';
import { reply } from '../fake-llm/replies';
import type { RecordedRequest } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { ThreadClient } from '../../client/threads/thread-client';
import { decompressPayload } from '../../temporal/payloads/compression-codec';
import { readThreadCarry, THREAD_CARRY_VERSION } from '../../workflows/thread/thread-carry';

const bed = agentTestbed();

const TURNS = 200;
/** A text of exactly `size` characters starting with `head`. */
const sized = (head: string, size: number): string =>
  `${head} ${'lorem ipsum dolor sit amet '.repeat(20)}`.slice(0, size);
const message = (n: number): string => sized(`turn ${n}:`, 100);
const answer = (n: number): string => sized(`answer ${n}:`, 100);
const SUMMARY = sized('Summary of the conversation so far:', 400);

/** The message ids a request names (`[msg-<n>]`), in order. */
const named = (request: RecordedRequest | undefined): number[] => {
  const text = request?.body.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n') ?? '';
  return [...text.matchAll(/\[msg-(\d+)\]/g)].map((m) => Number(m[1]));
};

/** Events of one history, split per turn: from a message's accepted `send` to the next one's. */
function perTurn(events: temporal.api.history.v1.IHistoryEvent[]): temporal.api.history.v1.IHistoryEvent[][] {
  const turns: temporal.api.history.v1.IHistoryEvent[][] = [];
  for (const event of events) {
    if (event.workflowExecutionUpdateAcceptedEventAttributes) turns.push([]);
    turns.at(-1)?.push(event);
  }
  return turns;
}

test(`a ${TURNS}-turn thread: flat per turn, compress calls at the threshold, continue-as-new with the carry read by each next run`, async () => {
  bed.llm.respondWith((request) => {
    const purpose = request.headers['x-cairn-purpose'];
    if (purpose === 'compress') return reply.text(SUMMARY);
    if (purpose !== 'chat') return undefined;
    const asked = request.body.messages.at(-1)?.content;
    const n = Number(/^turn (\d+):/.exec(typeof asked === 'string' ? asked : '')?.[1]);
    return reply.text(answer(n));
  });
  await withWorker(bed.config, async () => {
    const client = new ThreadClient(bed.client, bed.config.taskQueue);
    // 200 characters a turn (message and reply). At 2,000 the 11th turn passes the threshold
    // (2,200): the 6 oldest fold, leaving 5 (1,000, half of it); 6 turns later it passes again.
    const { id } = await client.open({}, { settings: { compressAtChars: 2_000, rollOverEvents: 300 } });
    const firstRun = (await bed.client.workflow.getHandle(id).describe()).runId;
    for (let n = 1; n <= TURNS; n++) {
      expect(await client.send(id, { text: message(n), kind: 'chat' })).toEqual({
        messageId: `msg-${n}`,
        disposition: 'answered',
      });
    }

    // Compress calls exactly at the threshold: after turns 11, 17, 23, … each folding the next six.
    const chats = bed.llm.requestsFor('chat');
    expect(chats).toHaveLength(TURNS);
    const compressed = bed.llm.requestsFor('compress');
    const after = compressed.map((c) => chats.filter((r) => r.index < c.index).length);
    const expected = Array.from({ length: Math.floor((TURNS - 1 - 11) / 6) + 1 }, (_, k) => 11 + 6 * k);
    expect(after).toEqual(expected);
    expect(compressed.map(named)).toEqual(expected.map((_, k) => [1, 2, 3, 4, 5, 6].map((i) => 6 * k + i)));
    // A chat after a fold hears the summary and the turns kept, never a folded one.
    const twelfth = chats[11];
    expect(twelfth?.body.messages[0]?.content).toContain(SUMMARY);
    expect(JSON.stringify(twelfth?.body.messages)).not.toContain(message(6));
    expect(JSON.stringify(twelfth?.body.messages)).toContain(message(7));

    // What each chat call sends: flat once the first fold has happened (as the step benchmark
    // counts only rounds after its inline phase).
    const firstFold = expected[0] ?? 0;
    const sent = chats.map((r) => JSON.stringify(r.body.messages).length).slice(firstFold);
    const requests = judgeFlat(sent);
    console.log(`chat request characters per turn: ${JSON.stringify(requests)}`);
    expect(requests?.met).toBe(true);

    // The thread's history per turn, over every run: events and bytes, flat.
    const runs = await waitUntil('the last turn settled', async () => {
      const view = await client.get(id);
      return view.turns.at(-1)?.messageId === `msg-${TURNS}` ? view : undefined;
    }).then(async () => {
      const out: temporal.api.history.v1.IHistory[] = [];
      let run: string | undefined = firstRun;
      while (run) {
        const history = await bed.client.workflow.getHandle(id, run).fetchHistory();
        out.push(history);
        run = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
      }
      return out;
    });
    const turns = perTurn(runs.flatMap((h) => h.events ?? []));
    expect(turns).toHaveLength(TURNS);
    const events = judgeFlat(turns.map((t) => t.length));
    const bytes = judgeFlat(
      turns
        .slice(firstFold)
        .map((t) => t.reduce((n, e) => n + temporal.api.history.v1.HistoryEvent.encode(e).finish().length, 0)),
    );
    console.log(
      `history per turn: events ${JSON.stringify(events)}, bytes ${JSON.stringify(bytes)}; ${runs.length} runs`,
    );
    expect(events?.met).toBe(true);
    expect(bytes?.met).toBe(true);

    // Continue-as-new between turns: every run after the first started with a carry of this
    // release, which it read (its turns went on from where the previous run stopped).
    expect(runs.length).toBeGreaterThan(3);
    const carries = runs.slice(1).map((h) => {
      const payload = h.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[1];
      return readThreadCarry(payload ? defaultPayloadConverter.fromPayload(decompressPayload(payload)) : undefined);
    });
    expect(carries.every((c) => c.version === THREAD_CARRY_VERSION)).toBe(true);
    const next = carries.map((c) => c.nextMessage);
    expect(next).toEqual([...next].sort((a, b) => a - b));
    // Bounded: no run was handed more than the turns below the threshold, plus the summary.
    expect(Math.max(...carries.map((c) => c.turns.length))).toBeLessThanOrEqual(10);
    const view = await client.get(id);
    expect((view.summary?.turns ?? 0) + view.turns.length).toBe(TURNS);
    expect(view.summary).toMatchObject({ text: SUMMARY, turns: 6 * expected.length });
  });
});
