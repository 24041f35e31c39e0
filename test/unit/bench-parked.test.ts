/**
 * The pure parts of the parked-threads bench (bench/parked-figures.ts): its size from the
 * environment, which threads woke across the idle window, the time to the first reply token
 * from the fake's log, resident memory from /proc, Prometheus samples, and the bounded map.
 */
import {
  FULL_SIZE,
  firstTokenTimes,
  histogramTotals,
  mapLimit,
  parkedSize,
  parseSamples,
  residentBytes,
  sampleSum,
  spread,
  wokenThreads,
  type ThreadMark,
} from '../../bench/parked-figures';

describe('parkedSize', () => {
  test('the acceptance size unless the environment says otherwise', () => {
    expect(parkedSize({})).toEqual({ threads: 10_000, idleSeconds: 300, messaged: 100 });
    expect(parkedSize({})).toEqual(FULL_SIZE);
    expect(parkedSize({ BENCH_PARKED_THREADS: '300', BENCH_PARKED_IDLE_S: '30', BENCH_PARKED_MESSAGED: '' })).toEqual({
      threads: 300,
      idleSeconds: 30,
      messaged: 100,
    });
  });

  test('a value that is not a positive whole number, or more messaged than parked, is refused', () => {
    expect(() => parkedSize({ BENCH_PARKED_THREADS: '10k' })).toThrow(/BENCH_PARKED_THREADS.*"10k"/);
    expect(() => parkedSize({ BENCH_PARKED_IDLE_S: '0' })).toThrow(/BENCH_PARKED_IDLE_S/);
    expect(() => parkedSize({ BENCH_PARKED_IDLE_S: '2.5' })).toThrow(/BENCH_PARKED_IDLE_S/);
    expect(() => parkedSize({ BENCH_PARKED_THREADS: '50' })).toThrow(/MESSAGED \(100\) exceeds.*THREADS \(50\)/);
  });

  test('threads are parked empty unless BENCH_PARKED_CONVERSATIONS=1 parks each after a first exchange', () => {
    expect(parkedSize({ BENCH_PARKED_CONVERSATIONS: '0' })).toEqual(FULL_SIZE);
    expect(parkedSize({ BENCH_PARKED_CONVERSATIONS: '1' })).toEqual({ ...FULL_SIZE, conversations: true });
    expect(() => parkedSize({ BENCH_PARKED_CONVERSATIONS: 'yes' })).toThrow(/BENCH_PARKED_CONVERSATIONS.*"yes"/);
  });
});

describe('wokenThreads', () => {
  const mark = (historyLength: number, change: Partial<ThreadMark> = {}): ThreadMark => ({
    historyLength,
    pendingTask: false,
    status: 'RUNNING',
    ...change,
  });

  test('a thread whose history, pending task or status changed, or that is missing on a side, woke', () => {
    const before = new Map([
      ['quiet', mark(5)],
      ['grew', mark(5)],
      ['pending', mark(5)],
      ['closed', mark(5)],
      ['gone', mark(5)],
    ]);
    const after = new Map([
      ['quiet', mark(5)],
      ['grew', mark(9)],
      ['pending', mark(5, { pendingTask: true })],
      ['closed', mark(5, { status: 'COMPLETED' })],
      ['new', mark(5)],
    ]);
    expect(wokenThreads(before, after).map((w) => w.id)).toEqual(['grew', 'pending', 'closed', 'gone', 'new']);
    expect(wokenThreads(before, after).find((w) => w.id === 'grew')).toEqual({
      id: 'grew',
      before: mark(5),
      after: mark(9),
    });
  });

  test('nothing changed: none woke', () => {
    const marks = new Map([['a', mark(5)]]);
    expect(wokenThreads(marks, new Map(marks))).toEqual([]);
  });
});

describe('firstTokenTimes', () => {
  const chat = (thread: string, receivedAt: number, chunkSentAt?: number[], answeredAt?: number) => ({
    headers: { 'x-cairn-agent': thread, 'x-cairn-purpose': 'chat' },
    receivedAt,
    ...(chunkSentAt ? { chunkSentAt } : {}),
    ...(answeredAt !== undefined ? { answeredAt } : {}),
  });

  test('from the send to the first content chunk (not the role chunk) of that thread’s first chat reply after it', () => {
    const sentAt = new Map([
      ['t1', 1000],
      ['t2', 1100],
      ['t3', 1200],
    ]);
    const requests = [
      chat('t1', 500, [500, 510]), // the parked conversation's own first exchange, before the send
      { headers: { 'x-cairn-agent': 't1', 'x-cairn-purpose': 'route-message' }, receivedAt: 1001, answeredAt: 1002 },
      chat('t1', 1300, [1400, 1450, 1460]),
      chat('t2', 1500, undefined, 1700), // did not stream: counts when sent whole
      chat('t1', 5000, [5000, 5001]), // a later chat of the same thread is not its first
      chat('other', 1000, [1000, 1001]), // not messaged by the bench
    ];
    const { firstToken, arrived, missing } = firstTokenTimes(sentAt, requests);
    expect(Object.fromEntries(firstToken)).toEqual({ t1: 450, t2: 600 });
    expect(Object.fromEntries(arrived)).toEqual({ t1: 300, t2: 400 });
    expect(missing).toEqual(['t3']);
  });
});

test('residentBytes reads the VmRSS line of /proc/<pid>/status', () => {
  const status = 'Name:\tnode\nVmPeak:\t 2000000 kB\nVmRSS:\t  812340 kB\nRssAnon:\t 700000 kB\n';
  expect(residentBytes(status)).toBe(812_340 * 1024);
  expect(() => residentBytes('Name:\tkthreadd\n')).toThrow(/VmRSS/);
});

test('Prometheus samples: labelled and bare, summed over the labels asked for; none is 0', () => {
  const text = [
    '# HELP temporal_workflow_task_queue_poll_succeed Count of workflow task queue poll successes',
    '# TYPE temporal_workflow_task_queue_poll_succeed counter',
    'temporal_workflow_task_queue_poll_succeed{task_queue="q",worker_type="WorkflowWorker"} 7',
    'temporal_workflow_task_queue_poll_succeed{task_queue="q-sticky",worker_type="WorkflowWorker"} 5',
    'temporal_sticky_cache_size 300 1700000000000',
    '',
  ].join('\n');
  const samples = parseSamples(text);
  expect(samples).toHaveLength(3);
  expect(sampleSum(samples, 'temporal_workflow_task_queue_poll_succeed')).toBe(12);
  expect(sampleSum(samples, 'temporal_workflow_task_queue_poll_succeed', { task_queue: 'q' })).toBe(7);
  expect(sampleSum(samples, 'temporal_sticky_cache_size')).toBe(300);
  expect(sampleSum(samples, 'no_such_metric')).toBe(0);
});

test("histogramTotals reads a histogram's count and sum, with or without the unit in its name", () => {
  const samples = parseSamples(
    [
      'temporal_workflow_task_execution_latency_bucket{le="0.01"} 3',
      'temporal_workflow_task_execution_latency_count{task_queue="q"} 4',
      'temporal_workflow_task_execution_latency_sum{task_queue="q"} 0.25',
      'other_latency_seconds_count 2',
      'other_latency_seconds_sum 1.5',
    ].join('\n'),
  );
  expect(histogramTotals(samples, 'temporal_workflow_task_execution_latency')).toEqual({ count: 4, sum: 0.25 });
  expect(histogramTotals(samples, 'other_latency')).toEqual({ count: 2, sum: 1.5 });
  expect(histogramTotals(samples, 'absent')).toEqual({ count: 0, sum: 0 });
});

test('mapLimit keeps the order and never has more than the limit in flight', async () => {
  let inFlight = 0;
  let most = 0;
  const out = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (value, index) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, value));
    inFlight -= 1;
    return `${index}:${value}`;
  });
  expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0']);
  expect(most).toBe(2);
  await expect(
    mapLimit([1, 2], 4, (v) => (v === 2 ? Promise.reject(new Error('boom')) : Promise.resolve(v))),
  ).rejects.toThrow('boom');
});

test('spread picks evenly over the list, the first included; all of it when asked for as many or more', () => {
  const ids = Array.from({ length: 10 }, (_, i) => i);
  expect(spread(ids, 5)).toEqual([0, 2, 4, 6, 8]);
  expect(spread(ids, 3)).toEqual([0, 3, 6]);
  expect(spread(ids, 10)).toEqual(ids);
  expect(spread(ids, 12)).toEqual(ids);
});
