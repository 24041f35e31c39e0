/**
 * One follower per (thread, message) (client/threads/follower-pool.ts): requests waiting on
 * the same message share its polls — as many thread reads as one follower makes, not one per
 * request —, each request goes when its own signal aborts while the others go on, and the polls
 * stop once the last one has gone. Against ports that count their reads.
 */
import { FollowerPool } from '../../client/threads/follower-pool';
import type { TurnPorts } from '../../client/threads/follow-turn';
import type { ThreadView, Turn } from '../../workflows/contract/thread-contract';
import { waitUntil } from '../../testkit/wait-until';

/**
 * A thread whose one turn runs until `settle()` — or, with `settleAt`, from that read on; `reads`
 * counts the thread reads.
 */
function countingThread(settleAt = Number.POSITIVE_INFINITY) {
  let settled = false;
  const counter = { reads: 0 };
  const view = (): ThreadView => {
    const status: Turn['status'] = settled || counter.reads >= settleAt ? 'completed' : 'running';
    return {
      id: 't',
      title: 't',
      status: 'open',
      turns: [
        { messageId: 'msg-1', text: 'hello', status, kind: 'chat', ...(status === 'completed' ? { reply: 'hi' } : {}) },
      ],
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    };
  };
  const ports: TurnPorts = {
    threads: {
      get: () => {
        counter.reads += 1;
        return Promise.resolve(view());
      },
    },
    agents: { state: () => Promise.reject(new Error('no agent to read')) },
  };
  return { ports, counter, settle: () => (settled = true) };
}

test('five requests on one message share one follower: the reads of one, one outcome for all', async () => {
  // The turn settles at the 10th read: one follower reads exactly 10 times; five of their own
  // would each need a read that sees it settled, 14 at least.
  const thread = countingThread(10);
  const followers = new FollowerPool(thread.ports, 5);
  const waiting = Array.from({ length: 5 }, () => followers.follow('t', 'msg-1', new AbortController().signal));
  expect(followers.size).toBe(1);
  const outcomes = await Promise.all(waiting);
  expect(outcomes.map((o) => o.kind)).toEqual(['settled', 'settled', 'settled', 'settled', 'settled']);
  expect(outcomes[0]).toMatchObject({ turn: { reply: 'hi' } });
  expect(thread.counter.reads).toBe(10);
  expect(followers.size).toBe(0);
});

test('one request that goes leaves the others following; the polls stop once the last has gone', async () => {
  const thread = countingThread();
  const followers = new FollowerPool(thread.ports, 5);
  const first = new AbortController();
  const second = new AbortController();
  const a = followers.follow('t', 'msg-1', first.signal);
  const b = followers.follow('t', 'msg-1', second.signal);
  await waitUntil('the follower reads', () => thread.counter.reads >= 2 || undefined);
  first.abort();
  expect(await a).toEqual({ kind: 'aborted' });
  const readsThen = thread.counter.reads;
  await waitUntil('it still reads for the other', () => thread.counter.reads >= readsThen + 3 || undefined);
  second.abort();
  expect(await b).toEqual({ kind: 'aborted' });
  expect(followers.size).toBe(0);
  const readsAtEnd = thread.counter.reads;
  // Stopped: a pause many poll intervals long brings at most the read that was under way.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(thread.counter.reads).toBeLessThanOrEqual(readsAtEnd + 1);
  // A request after that starts a follower afresh, which still hears the turn settle.
  thread.settle();
  expect(await followers.follow('t', 'msg-1', new AbortController().signal)).toMatchObject({ kind: 'settled' });
});
