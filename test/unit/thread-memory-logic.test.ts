/**
 * The pure parts of a thread's memory: when old turns fold and how many (compressAtChars), the
 * mechanical summary, the summary in a chat call's and a task turn's context, and titles (the
 * model's reply cleaned, the mechanical one).
 */
import type { Turn } from '../../workflows/contract/thread-contract';
import {
  compressMessages,
  foldCount,
  MAX_SUMMARY_CHARS,
  mechanicalSummary,
  turnChars,
} from '../../workflows/thread/thread-compress';
import { chatMessages, turnTask, withSummary } from '../../workflows/model/thread/thread-context';
import { cleanTitle } from '../../workflows/thread/thread-title';
import { mechanicalTitle, threadView, TITLE_CHARS } from '../../workflows/model/thread/thread-view';

/** A settled chat turn of `size` characters: half message, half reply. */
const turn = (n: number, size = 200, status: Turn['status'] = 'completed'): Turn => ({
  messageId: `msg-${n}`,
  text: `m${n}`.padEnd(size / 2, '.'),
  reply: `r${n}`.padEnd(size / 2, '.'),
  kind: 'chat',
  status,
});

test("a turn's size counts its message, reply, and steps' titles and results", () => {
  expect(turnChars(turn(1))).toBe(200);
  const task: Turn = {
    ...turn(2),
    steps: [
      { id: 's1', title: 'abc', result: 'de' },
      { id: 's2', title: 'f' },
    ],
  };
  expect(turnChars(task)).toBe(206);
});

test('a rejected message counts nothing toward the threshold, and folds with the turns around it', () => {
  expect(turnChars(turn(1, 5_000, 'rejected'))).toBe(0);
  const refused = [turn(2, 1_000, 'rejected'), turn(3, 1_000, 'rejected')];
  expect(foldCount([turn(1), ...refused], 300)).toBe(0);
  expect(foldCount([turn(1, 400), ...refused], 300)).toBe(1);
});

test('nothing folds up to the threshold; past it the oldest fold until at most half is left', () => {
  const ten = Array.from({ length: 10 }, (_, i) => turn(i + 1));
  expect(foldCount(ten, 2_000)).toBe(0); // 2,000: not past it
  const eleven = [...ten, turn(11)];
  expect(foldCount(eleven, 2_000)).toBe(6); // 2,200 → 1,000, the newest not among the six
});

test("the thread's newest turn never folds, however large; a turn still running keeps its own place", () => {
  expect(foldCount([turn(1), turn(2, 3_000)], 2_000)).toBe(1);
  expect(foldCount([turn(1, 3_000)], 2_000)).toBe(0);
  const running = [turn(1), turn(2), turn(3, 200, 'running'), turn(4, 5_000)];
  expect(foldCount(running, 300)).toBe(2); // the newest settled prefix turn is not the thread's newest
});

test('only settled turns at the start count: a running turn and what follows it stay', () => {
  const turns = [turn(1), turn(2), turn(3, 200, 'running'), turn(4, 5_000)];
  expect(foldCount(turns, 300)).toBe(2);
  expect(foldCount([turn(1, 200, 'routing'), turn(2, 5_000)], 300)).toBe(0);
});

test('the mechanical summary: a line or two per turn after the summary so far, the oldest lines dropped past its bound', () => {
  const long: Turn = { ...turn(3), text: 'x'.repeat(500), steps: [{ id: 's1', title: 'Look' }] };
  expect(mechanicalSummary('earlier', [long]).split('\n')).toEqual([
    'earlier',
    `[msg-3] user: ${'x'.repeat(200)}…`,
    '  steps: Look',
    `  reply: ${long.reply}`,
  ]);
  const many = Array.from({ length: 100 }, (_, i) => turn(i + 1, 400));
  const text = mechanicalSummary(undefined, many);
  expect(text.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
  expect(text).toContain('[msg-100]');
  expect(text).not.toContain('[msg-1]');
});

test('the compress request: instructions, then the summary so far and the turns to add', () => {
  const [system, user] = compressMessages('so far', [turn(1)]);
  expect(system?.role).toBe('system');
  expect(user?.content).toContain('Summary so far:\nso far');
  expect(user?.content).toContain('[msg-1]');
  expect(compressMessages(undefined, [turn(1)])[1]?.content).toContain('Summary so far:\n(none)');
});

test("the summary comes first in a chat call's system message and a task turn's context", () => {
  const summary = { text: 'they talked about tea', turns: 4, through: 'msg-4' };
  const earlier = withSummary(summary, [turn(5)]);
  const chat = chatMessages('and coffee?', earlier);
  expect(chat.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  expect(chat[0]?.content).toContain('they talked about tea');
  expect(chat[1]?.content).toBe(turn(5).text);
  const task = turnTask('compare', earlier);
  expect(task).toContain('Summary of the older turns: they talked about tea');
  expect(task.indexOf('they talked about tea')).toBeLessThan(task.indexOf('[msg-5]'));
  expect(withSummary(undefined, [turn(5)])).toEqual([turn(5)]);
  // Only a summary: still told.
  expect(turnTask('go', withSummary(summary, []))).toContain('they talked about tea');
});

test('a title reply is cleaned (first line, label, quotes, Markdown) and cut; the mechanical title is the first line, cut', () => {
  expect(cleanTitle('"Tea or coffee"')).toBe('Tea or coffee');
  expect(cleanTitle('\n## Title: **Launch plan**\nmore')).toBe('Launch plan');
  expect(cleanTitle('  \n ')).toBe('');
  expect(cleanTitle(null)).toBe('');
  expect(cleanTitle('w'.repeat(200))).toHaveLength(TITLE_CHARS);
  expect(mechanicalTitle('  plan the launch\nwith details')).toBe('plan the launch');
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  expect(threadView('t', [{ ...turn(1), text: 'hello there' }], usage).title).toBe('hello there');
  expect(threadView('t', [turn(1)], usage).title).toBe(`${turn(1).text.slice(0, TITLE_CHARS - 1)}…`);
  expect(threadView('t', [turn(1)], usage, undefined, { title: 'Named' }).title).toBe('Named');
});
