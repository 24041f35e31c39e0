/**
 * The one poll-by-cursor loop (client/agents/follow-timeline.ts): every event once and in order, an
 * end when the agent ends, a stop on abort — and no abort listeners left behind by its waits,
 * which used to pile up while `cairn run` waited for a person (Node's
 * MaxListenersExceededWarning at 11).
 */
import { getEventListeners } from 'node:events';
import { followTimeline, pause } from '../../client/agents/follow-timeline';

interface FakeState {
  phase: string;
  events: { seq: number; type: string }[];
}

/**
 * A timeline that gains one event per read, in phase `executing` until `endAfter` reads, as the
 * agent's state query answers: only events after the cursor it is given.
 */
function growingTimeline(endAfter = Infinity) {
  const all: FakeState['events'] = [];
  const cursors: number[] = [];
  const read = (afterSeq: number): Promise<FakeState> => {
    cursors.push(afterSeq);
    all.push({ seq: all.length + 1, type: 'x' });
    const phase = cursors.length >= endAfter ? 'completed' : 'executing';
    return Promise.resolve({ phase, events: all.filter((e) => e.seq > afterSeq) });
  };
  return { read, cursors };
}

test('delivers every event once, in order, reading from the cursor, and ends with a terminal state', async () => {
  const { read, cursors } = growingTimeline(4);
  const seen: number[] = [];
  const phases: string[] = [];
  for await (const state of followTimeline(read, { afterSeq: 0, intervalMs: 1 })) {
    phases.push(state.phase);
    seen.push(...state.events.map((e) => e.seq));
  }
  expect(seen).toEqual([1, 2, 3, 4]);
  expect(cursors).toEqual([0, 1, 2, 3]);
  expect(phases).toEqual(['executing', 'executing', 'executing', 'completed']);
});

test('a state read beforehand is the first round, and events at or before the cursor are not repeated', async () => {
  const { read, cursors } = growingTimeline(1);
  const first: FakeState = { phase: 'executing', events: [4, 5, 6].map((seq) => ({ seq, type: 'x' })) };
  const seen: number[] = [];
  for await (const state of followTimeline(read, { afterSeq: 4, intervalMs: 1, first })) {
    seen.push(...state.events.map((e) => e.seq));
  }
  // The first state's seq 4 is the cursor itself; the fake's own events 1 and 2 are old news.
  expect(seen).toEqual([5, 6]);
  expect(cursors).toEqual([6]);
});

test('its waits leave no abort listener behind: none after 60 rounds, on any signal, none once it stopped', async () => {
  // Every signal anything listens on during the loop, the loop's internal ones included.
  const adds = jest.spyOn(EventTarget.prototype, 'addEventListener');
  try {
    const stop = new AbortController();
    const { read } = growingTimeline();
    const live: number[] = [];
    let rounds = 0;
    for await (const _ of followTimeline(read, { intervalMs: 1, signal: stop.signal })) {
      const signals = new Set(adds.mock.contexts.filter((target) => target instanceof AbortSignal));
      live.push(Math.max(0, ...[...signals].map((signal) => getEventListeners(signal, 'abort').length)));
      if (++rounds === 60) stop.abort();
    }
    expect(rounds).toBe(60);
    // At most the loop's own listener on the caller's signal and one wait's on its wake-up
    // signal — never one more per wait (Node warns at 11: MaxListenersExceededWarning).
    expect(Math.max(...live)).toBeLessThanOrEqual(1);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  } finally {
    adds.mockRestore();
  }
});

test('an abort during a wait stops at once, with no further read', async () => {
  const stop = new AbortController();
  const { read, cursors } = growingTimeline();
  const started = Date.now();
  let rounds = 0;
  for await (const _ of followTimeline(read, { intervalMs: 60_000, signal: stop.signal })) {
    rounds += 1;
    setImmediate(() => stop.abort());
  }
  expect(rounds).toBe(1);
  expect(cursors).toHaveLength(1);
  expect(Date.now() - started).toBeLessThan(30_000);
});

test('when `ended` settles, the wait is cut short and the state is read one last time', async () => {
  const { read, cursors } = growingTimeline();
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const seen: number[] = [];
  const started = Date.now();
  for await (const state of followTimeline(read, { intervalMs: 60_000, ended })) {
    seen.push(...state.events.map((e) => e.seq));
    setImmediate(end);
  }
  // The phase never turned terminal: the loop ended on `ended`, after one more read.
  expect(seen).toEqual([1, 2]);
  expect(cursors).toEqual([0, 1]);
  expect(Date.now() - started).toBeLessThan(30_000);
});

test('pause: true after the full time, false when aborted, no listener left either way', async () => {
  const controller = new AbortController();
  for (let i = 0; i < 20; i++) expect(await pause(1, controller.signal)).toBe(true);
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  const cut = pause(60_000, controller.signal);
  controller.abort();
  expect(await cut).toBe(false);
  expect(await pause(1, controller.signal)).toBe(false);
});
