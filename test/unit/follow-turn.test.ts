/**
 * The pure parts of following a turn (client/threads/follow-turn.ts): how often it looks while the
 * turn is quiet, which agent's questions hold a message up, a look no worker answered in
 * time tried again, and a message the read's page of newest turns left out read by itself.
 */
import { blockingAgent, followTurn, patiently, pollDelay, runningTurn } from '../../client/threads/follow-turn';
import { ClientError } from '../../client/client-error';
import type { Turn } from '../../workflows/contract/thread-contract';

const zeroUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

test('the poll slows while nothing changes: the given interval for 5 s, then 1 s, then 2 s after a minute', () => {
  expect([0, 4_999, 5_000, 59_999, 60_000, 3_600_000].map((quiet) => pollDelay(250, quiet))).toEqual([
    250, 250, 1_000, 1_000, 2_000, 2_000,
  ]);
  // A slower interval than that is kept.
  expect(pollDelay(5_000, 120_000)).toBe(5_000);
});

test("a running turn's own agent holds it up; a queued message waits on the running turn's agent", () => {
  const turns: Turn[] = [
    { messageId: 'msg-1', text: 'write', kind: 'task', status: 'running', agentId: 'thread-a/turn-1' },
    { messageId: 'msg-2', text: 'and then', status: 'queued', disposition: 'queued' },
    { messageId: 'msg-3', text: 'hi', kind: 'chat', status: 'completed', reply: 'hello' },
  ];
  expect(runningTurn(turns)?.messageId).toBe('msg-1');
  expect(turns.map((t) => blockingAgent(t, turns))).toEqual(['thread-a/turn-1', 'thread-a/turn-1', undefined]);
});

test('a look no worker answered in time is tried again; any other error is thrown; a caller gone away ends it', async () => {
  const unavailable = () => new ClientError('AGENT_UNAVAILABLE', 'no worker answered the query within 10 s');
  let looks = 0;
  const flaky = () => {
    looks++;
    return looks === 1 ? Promise.reject(unavailable()) : Promise.resolve('the thread');
  };
  expect(await patiently(flaky)).toBe('the thread');
  expect(looks).toBe(2);
  const missing = new ClientError('NOT_FOUND', 'no thread t');
  await expect(patiently(() => Promise.reject(missing))).rejects.toBe(missing);
  const gone = new AbortController();
  const down = patiently(() => {
    gone.abort();
    return Promise.reject(unavailable());
  }, gone.signal);
  expect(await down).toBeUndefined();
});

test("a message the thread's read left out of its page (newer turns pushed it past it) is read by itself", async () => {
  const newer: Turn[] = [{ messageId: 'msg-60', text: 'later', kind: 'chat', status: 'completed', reply: 'ok' }];
  const view = { id: 't', title: 't', status: 'open' as const, turns: newer, olderTurns: 59, usage: zeroUsage };
  const settled: Turn = { messageId: 'msg-3', text: 'early', kind: 'chat', status: 'completed', reply: 'done' };
  const ports = {
    threads: {
      get: () => Promise.resolve(view),
      message: (_thread: string, messageId: string) =>
        messageId === 'msg-3' ? Promise.resolve(settled) : Promise.reject(new Error(`no ${messageId}`)),
    },
    agents: { state: () => Promise.reject(new Error('no agent is asked')) },
  };
  expect(await followTurn(ports, 't', 'msg-3')).toEqual({ kind: 'settled', turn: settled });
});
