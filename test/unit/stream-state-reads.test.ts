/**
 * The streams' shared state reads (client/agents/stream-state-reads.ts), on a clock of the test's:
 * readers of one agent within the poll interval share one read, each getting only the events
 * after its own cursor; an older cursor, another agent or an older read reads again; a failed read
 * is not kept. And the stream limiter gives a released place back once only.
 */
import { SharedStateReads } from '../../client/agents/stream-state-reads';
import { StreamLimiter } from '../../client/http/stream-limiter';
import type { Principal } from '../../client/http/auth/principal';
import type { AgentState } from '../../workflows/model/agent/agent-state';

/** A state with events 1..`last` (the streams read only `phase` and `events`). */
function stateWith(last: number): AgentState {
  const events = Array.from({ length: last }, (_, i) => ({ seq: i + 1, at: i, type: 'step.started', message: 'm' }));
  return { phase: 'executing', events } as unknown as AgentState;
}

function reader() {
  let now = 0;
  const calls: [string, number][] = [];
  let fail = false;
  const reads = new SharedStateReads(
    (id, after) => {
      calls.push([id, after]);
      if (fail) return Promise.reject(new Error('no worker answered'));
      return Promise.resolve({ ...stateWith(10), events: stateWith(10).events.filter((e) => e.seq > after) });
    },
    500,
    () => now,
  );
  const seqs = async (id: string, after: number) => (await reads.state(id, after)).events.map((e) => e.seq);
  return { reads, calls, seqs, tick: (ms: number) => (now += ms), failing: (on: boolean) => (fail = on) };
}

test('readers of one agent within the interval share a read, each from its own cursor', async () => {
  const r = reader();
  expect(await r.seqs('a', 4)).toEqual([5, 6, 7, 8, 9, 10]);
  r.tick(100);
  expect(await r.seqs('a', 8)).toEqual([9, 10]);
  expect(await r.seqs('a', 10)).toEqual([]);
  expect(r.calls).toEqual([['a', 4]]);
  // An older cursor than the kept read's, another agent, or the interval over: a new read.
  expect(await r.seqs('a', 2)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  expect(await r.seqs('b', 8)).toEqual([9, 10]);
  r.tick(500);
  expect(await r.seqs('a', 8)).toEqual([9, 10]);
  expect(r.calls).toEqual([
    ['a', 4],
    ['a', 2],
    ['b', 8],
    ['a', 8],
  ]);
});

test('concurrent readers wait on one read in flight; a failed read is not kept', async () => {
  const r = reader();
  const together = await Promise.all([r.seqs('a', 9), r.seqs('a', 9), r.seqs('a', 9)]);
  expect(together).toEqual([[10], [10], [10]]);
  expect(r.calls).toHaveLength(1);
  r.tick(600);
  r.failing(true);
  await expect(r.reads.state('a', 9)).rejects.toThrow('no worker answered');
  r.failing(false);
  expect(await r.seqs('a', 9)).toEqual([10]);
  expect(r.calls).toHaveLength(3);
});

test('a released place comes back once, however often the stream releases it', () => {
  const limiter = new StreamLimiter({ perPrincipal: 2, total: 3 });
  const vic: Principal = { id: 'vic', roles: ['viewer'], method: 'api', authenticatedBy: 'token' };
  // The same id signed in elsewhere is someone else's count.
  const vicAtProvider: Principal = { ...vic, authenticatedBy: 'oidc-bearer' };
  const first = limiter.acquire(vic);
  const second = limiter.acquire(vic);
  expect(limiter.acquire(vic)).toEqual({ refused: 'vic already holds 2 open streams (at most 2)' });
  expect('release' in limiter.acquire(vicAtProvider)).toBe(true);
  expect(limiter.acquire(vicAtProvider)).toEqual({ refused: 'the server already holds 3 open streams (at most 3)' });
  if (!('release' in first) || !('release' in second)) throw new Error('refused');
  first.release();
  first.release();
  expect([limiter.count(vic), limiter.count()]).toEqual([1, 2]);
  expect('release' in limiter.acquire(vic)).toBe(true);
  expect(limiter.acquire(vic)).toEqual({ refused: 'vic already holds 2 open streams (at most 2)' });
});
