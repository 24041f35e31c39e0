/**
 * turnIn (client/threads/cli/chat-threads.ts): the turn `cairn chat` waits on — an error, not a wait for
 * ever, when the thread lost the message or closed (terminated) before the turn settled.
 */
import { turnIn } from '../../client/threads/cli/chat-threads';
import type { ThreadView, Turn } from '../../workflows/contract/thread-contract';

const usage: ThreadView['usage'] = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
const view = (status: 'open' | 'closed', turns: Turn[]): ThreadView => ({
  id: 'thread-a',
  title: 't',
  status,
  ...(status === 'closed' ? { closedReason: 'its workflow is terminated' } : {}),
  turns,
  usage,
});
const routing: Turn = { messageId: 'msg-1', text: 'hi', status: 'routing' };
const done: Turn = { messageId: 'msg-1', text: 'hi', status: 'completed', reply: 'hello' };

test('an open thread gives the turn, whatever its status', () => {
  expect(turnIn(view('open', [routing]), 'msg-1')).toBe(routing);
});

test('a closed thread gives a settled turn, and throws for one it left unsettled', () => {
  expect(turnIn(view('closed', [done]), 'msg-1')).toBe(done);
  expect(() => turnIn(view('closed', [routing]), 'msg-1')).toThrow(
    'thread thread-a closed (its workflow is terminated) before it answered msg-1',
  );
});

test('a message the thread does not have throws', () => {
  expect(() => turnIn(view('open', [routing]), 'msg-2')).toThrow('thread thread-a has no message msg-2');
});
