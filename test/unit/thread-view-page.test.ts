/**
 * The `thread` query's bounds (workflows/model/thread/thread-view.ts, docs/contracts.md#threads): a
 * page of turns — the newest DEFAULT_VIEW_TURNS, or `limit` before a message — and each
 * message's text cut past VIEW_TEXT_CHARS with its whole length beside it.
 */
import { pageOf, threadView, turnView } from '../../workflows/model/thread/thread-view';
import type { Turn } from '../../workflows/contract/thread-contract';

const turns: Turn[] = Array.from({ length: 120 }, (_, i) => ({
  messageId: `msg-${i + 1}`,
  text: `message ${i + 1}`,
  status: 'completed',
}));
const ids = (shown: Turn[]) => shown.map((t) => t.messageId);

test('the newest 50 by default; `limit` before a message; a page that does not parse is the default; an unknown `before` shows none', () => {
  const newest = pageOf(turns, undefined);
  expect([newest.shown.length, newest.shown[0]?.messageId, newest.older]).toEqual([50, 'msg-71', 70]);
  expect(ids(pageOf(turns, { before: 'msg-4', limit: 10 }).shown)).toEqual(['msg-1', 'msg-2', 'msg-3']);
  expect(pageOf(turns, { before: 'msg-4', limit: 10 }).older).toBe(0);
  expect(pageOf(turns, { limit: 'all' }).shown).toHaveLength(50);
  expect(pageOf(turns, { before: 'msg-999' })).toEqual({ shown: [], older: 0 });
});

test('a text past 2,000 characters is cut, ending with … and saying its length; a shorter one is left whole', () => {
  const long: Turn = { messageId: 'msg-1', text: 'y'.repeat(2_001), status: 'queued' };
  expect(turnView(long)).toEqual({ ...long, text: `${'y'.repeat(2_000)}…`, textChars: 2_001 });
  const short: Turn = { messageId: 'msg-2', text: 'y'.repeat(2_000), status: 'queued' };
  expect(turnView(short)).toEqual(short);
  // The title still comes from the first message, whatever the page shows.
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  expect(threadView('t', turns, usage, undefined, {}, { limit: 1 }).title).toBe('message 1');
});
