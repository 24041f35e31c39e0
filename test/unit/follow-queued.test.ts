/**
 * The pure parts of going on with the messages queued behind an answered turn
 * (client/threads/chat/follow-queued.ts): which of them a response could not wait for, what it says
 * of them, and how they appear in the `cairn` extension after the replied ones.
 */
import {
  pendingQueued,
  pendingQueuedText,
  withQueued,
  type QueuedMessage,
  type QueuedReply,
} from '../../client/threads/chat/follow-queued';
import type { Turn } from '../../workflows/contract/thread-contract';

const queued: QueuedMessage[] = [
  { messageId: 'msg-2', text: 'and the pricing?' },
  { messageId: 'msg-3', text: 'compare   the\nrivals' },
  { messageId: 'msg-4', text: 'thanks' },
];
const turns: Turn[] = [
  { messageId: 'msg-1', text: 'write', kind: 'task', status: 'completed', agentId: 'thread-a/turn-1' },
  { messageId: 'msg-2', text: 'and the pricing?', kind: 'chat', status: 'completed', reply: '10 dollars' },
  { messageId: 'msg-3', text: 'compare the rivals', kind: 'task', status: 'running', agentId: 'thread-a/turn-3' },
  { messageId: 'msg-4', text: 'thanks', status: 'queued', disposition: 'queued' },
];
const replied: QueuedReply[] = [{ ...queued[0]!, outcome: { kind: 'settled', turn: turns[1]! } }];

test('the queued messages not replied to are pending, each with its turn as the thread says now', () => {
  expect(pendingQueued(queued, replied, turns)).toEqual([
    { messageId: 'msg-3', text: 'compare   the\nrivals', status: 'running', agentId: 'thread-a/turn-3' },
    { messageId: 'msg-4', text: 'thanks', status: 'queued' },
  ]);
  // A turn the thread no longer shows (it could not be read) is taken as still queued.
  expect(pendingQueued(queued, replied, []).map((p) => p.status)).toEqual(['queued', 'queued']);
  expect(pendingQueued(queued.slice(0, 1), replied, turns)).toEqual([]);
});

test('a pending message is quoted on one line and said to be answered in the thread later', () => {
  const [running, waiting] = pendingQueued(queued, replied, turns);
  expect(pendingQueuedText('thread-a', running!)).toBe(
    '\n\n> compare the rivals\n\nNot answered yet (its turn is running, agent thread-a/turn-3). ' +
      'Its reply will be in thread thread-a.',
  );
  expect(pendingQueuedText('thread-a', waiting!)).toBe(
    '\n\n> thanks\n\nNot answered yet (its turn is queued). Its reply will be in thread thread-a.',
  );
});

test('cairn.queued lists the replied messages first, then the pending; with neither the extension is unchanged', () => {
  const cairn = { thread: 'thread-a', messageId: 'msg-1', status: 'completed' };
  expect(withQueued(cairn, [], undefined, [])).toBe(cairn);
  expect(withQueued(cairn, replied, undefined, pendingQueued(queued, replied, turns)).queued).toEqual([
    { messageId: 'msg-2', status: 'completed', kind: 'chat' },
    { messageId: 'msg-3', status: 'running', agentId: 'thread-a/turn-3' },
    { messageId: 'msg-4', status: 'queued' },
  ]);
});
