/**
 * The retained log of an agent's live stream (workflows/model/live/live-log.ts): offsets that only
 * grow, duplicate batches ignored, a retry superseding its attempt, a finished call's items kept
 * until every subscriber seen lately has read them and then dropped (a reset for whoever asks
 * for them later), a runaway reply cut to the size limit, the end closing what is open, and a
 * carry that gives the next run the same log.
 */
import {
  callKey,
  FINISHED_GRACE_MS,
  LiveLog,
  MAX_RETAINED_CHARS,
  SUBSCRIBER_TTL_MS,
} from '../../workflows/model/live/live-log';
import type { LiveCall, LiveEntry, LivePublish } from '../../workflows/contract/live-messages';

const call = (attempt = 1, modelCallId = 'agent-1/step-s1/run/1'): LiveCall => ({
  agentId: 'agent-1',
  stepId: 's1',
  modelCallId,
  attempt,
  purpose: 'step',
});
const text = (t: string): LiveEntry => ({ type: 'delta', channel: 'text', text: t });
const started: LiveEntry = { type: 'call.started', streaming: true, at: 1 };
const finished: LiveEntry = { type: 'call.finished', outcome: 'completed', finishReason: 'stop', at: 2 };

function batch(c: LiveCall, seq: number, entries: LiveEntry[]): LivePublish {
  return { publisher: callKey(c), seq, call: c, entries };
}

const types = (log: LiveLog, from?: number) => log.page(from).items.map((i) => [i.offset, i.entry.type]);

test('items get growing offsets; a duplicate batch changes nothing; a page names the calls of its items', () => {
  const log = new LiveLog();
  log.publish(batch(call(), 1, [started, text('Hel')]), 0);
  log.publish(batch(call(), 1, [started, text('Hel')]), 0); // a retried signal
  log.publish(batch(call(), 2, [text('lo')]), 0);
  expect(types(log)).toEqual([
    [0, 'call.started'],
    [1, 'delta'],
    [2, 'delta'],
  ]);
  const page = log.page(1);
  expect(page).toMatchObject({ base: 0, next: 3, ended: false, truncated: false });
  expect(page.items.map((i) => i.offset)).toEqual([1, 2]);
  expect(page.calls).toEqual({ [callKey(call())]: call() });
});

test("a finished call's items stay until every live subscriber has read past them", () => {
  const log = new LiveLog();
  log.polled('web-a', 0, 0);
  log.polled('web-b', 0, 0);
  log.publish(batch(call(), 1, [started, text('hi'), finished]), 1);
  expect(log.page(undefined).base).toBe(0); // nobody has read them yet
  log.polled('web-a', 3, 2);
  expect(log.page(undefined).base).toBe(0); // web-b has not
  log.polled('web-b', 3, 3);
  expect(log.page(undefined)).toMatchObject({ base: 3, next: 3, items: [] });
  // Asking for what is gone says so, and answers from the oldest retained item.
  expect(log.page(1)).toMatchObject({ truncated: true, base: 3 });
  expect(log.page(3)).toMatchObject({ truncated: false });
});

test('an open call holds its items; a subscriber not seen for the TTL holds nothing back', () => {
  const log = new LiveLog();
  const other = call(1, 'agent-1/step-s2/run/1');
  log.polled('web-a', 0, 0);
  log.publish(batch(call(), 1, [started, text('one')]), 0);
  log.publish(batch(other, 1, [started, text('two'), finished]), 0);
  log.polled('web-a', 5, 1);
  // s1 is still open: nothing from its first item on is dropped.
  expect(log.page(undefined).base).toBe(0);
  log.publish(batch(call(), 2, [finished]), 2);
  expect(log.page(undefined).base).toBe(5); // web-a had read up to 5; the finished s1 item at 5 waits
  log.publish(batch(call(2, 'agent-1/step-s3/run/1'), 1, [started]), SUBSCRIBER_TTL_MS + 10);
  expect(log.page(undefined).base).toBe(6); // web-a is gone: only the open s3 call's item is kept
});

test('a retry supersedes the attempt before it: that attempt is closed and the entry names both', () => {
  const log = new LiveLog();
  log.polled('web-a', 0, 0);
  log.publish(batch(call(1), 1, [started, text('partial')]), 0); // its worker died: no finish
  log.publish(batch(call(2), 1, [{ type: 'call.superseded', by: 2, at: 3 }, started, text('whole')]), 0);
  const page = log.page(undefined);
  const superseded = page.items.find((i) => i.entry.type === 'call.superseded');
  expect(superseded?.key).toBe(callKey(call(1)));
  expect(page.calls[superseded?.key ?? '']).toEqual(call(1));
  // Attempt 1 is closed: once attempt 2 finishes and the subscriber read it all, the log empties.
  log.publish(batch(call(2), 2, [finished]), 0);
  expect(log.anyOpen).toBe(false);
  log.polled('web-a', log.nextOffset, 1);
  expect(log.page(undefined).items).toEqual([]);
  // With nobody watching, the superseded attempt goes at once: a later viewer sees the retry only.
  const alone = new LiveLog();
  alone.publish(batch(call(1), 1, [started, text('partial')]), 0);
  alone.publish(batch(call(2), 1, [{ type: 'call.superseded', by: 2, at: 3 }, started, text('whole')]), 0);
  expect(alone.page(undefined).items.map((i) => i.key)).toEqual([callKey(call(2)), callKey(call(2))]);
});

test('with nobody reading yet, a finished call waits FINISHED_GRACE_MS for a viewer; one reading governs', () => {
  const log = new LiveLog();
  log.publish(batch(call(), 1, [started, text('plan'), finished]), 1_000);
  // A viewer opening as the agent starts still gets the first call whole.
  expect(types(log)).toEqual([
    [0, 'call.started'],
    [1, 'delta'],
    [2, 'call.finished'],
  ]);
  log.publish(batch(call(1, 'agent-1/step-s1/run/2'), 1, [started]), 1_000 + FINISHED_GRACE_MS - 1);
  expect(log.page(undefined).base).toBe(0);
  log.publish(batch(call(1, 'agent-1/step-s1/run/2'), 2, [text('x')]), 1_000 + FINISHED_GRACE_MS);
  expect(log.page(undefined).base).toBe(3); // past the grace: only the open call is kept
  // Once a subscriber is seen, what it has read goes at once, grace or not.
  const read = new LiveLog();
  read.polled('web-a', 0, 0);
  read.publish(batch(call(), 1, [started, text('plan'), finished]), 1);
  read.polled('web-a', 3, 2);
  expect(read.page(undefined)).toMatchObject({ base: 3, items: [] });
});

test('a runaway reply is cut to the size limit, oldest first, even while its call is open', () => {
  const log = new LiveLog();
  const piece = 'x'.repeat(16 * 1024);
  for (let seq = 1; seq <= 40; seq++) log.publish(batch(call(), seq, [text(piece)]), 0);
  const page = log.page(0);
  const kept = page.items.reduce((sum, i) => sum + (i.entry.type === 'delta' ? i.entry.text.length : 0), 0);
  expect(kept).toBeLessThanOrEqual(MAX_RETAINED_CHARS);
  expect(page.base).toBeGreaterThan(0);
  expect(page.truncated).toBe(true);
  expect(page.items.at(-1)?.offset).toBe(39);
});

test('the end closes open calls as abandoned, comes last, and takes nothing after it', () => {
  const log = new LiveLog();
  log.publish(batch(call(), 1, [started, text('never finished')]), 0);
  log.end(5);
  log.publish(batch(call(), 2, [finished]), 6);
  expect(types(log)).toEqual([
    [0, 'call.started'],
    [1, 'delta'],
    [2, 'call.finished'],
    [3, 'end'],
  ]);
  expect(log.page(undefined).items[2]?.entry).toEqual({ type: 'call.finished', outcome: 'abandoned', at: 5 });
  expect(log.page(undefined).ended).toBe(true);
  expect(log.allReadToEnd(6)).toBe(true); // no subscriber
  log.polled('web-a', 2, 6);
  expect(log.allReadToEnd(6)).toBe(false);
  log.polled('web-a', 4, 7);
  expect(log.allReadToEnd(7)).toBe(true);
});

test('the carry gives the next run the same log, and drops what the next run needs no more', () => {
  const log = new LiveLog();
  log.polled('web-gone', 0, 0);
  log.publish(batch(call(), 1, [started, text('go')]), 0);
  log.publish(batch(call(1, 'agent-1/plan/run/1'), 1, [started, finished]), 0);
  log.polled('web-a', 0, SUBSCRIBER_TTL_MS);
  const carry = log.carry(SUBSCRIBER_TTL_MS + 1);
  const next = new LiveLog(carry);
  expect(next.page(undefined)).toEqual(log.page(undefined));
  // A subscriber not seen for the TTL is not carried; the one seen lately is.
  expect(Object.keys(carry.subscribers)).toEqual(['web-a']);
  // The open call's publisher is kept (its duplicate is still ignored), the closed one's is not.
  expect(Object.keys(carry.publishers)).toEqual([callKey(call())]);
  next.publish(batch(call(), 1, [text('dup')]), SUBSCRIBER_TTL_MS + 1);
  expect(next.nextOffset).toBe(log.nextOffset);
});
