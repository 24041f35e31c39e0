/**
 * The burst's CPU figures (bench/burst-cpu.ts): the machine's busy share from /proc/stat, each
 * process's cores over a window of samples, and the heaviest processes between two snapshots.
 */
import { busyBetween, parseMachineStat, topConsumers, type CpuSample } from '../../bench/burst-cpu';

test("the machine's busy jiffies are all but idle and iowait", () => {
  // user nice system idle iowait irq softirq steal guest guest_nice
  const stat = 'cpu  100 5 20 400 10 0 3 2 0 0\ncpu0 50 2 10 200 5 0 1 1 0 0\nintr 1 2 3\n';
  expect(parseMachineStat(stat)).toEqual({ busy: 130, total: 540 });
  expect(() => parseMachineStat('intr 1 2 3\n')).toThrow('no cpu line');
});

test('a window reads the samples around it: cores per process and the busy share of the machine', () => {
  const samples: CpuSample[] = [
    { at: 0, ticks: [0, 0], machine: { busy: 0, total: 0 } },
    { at: 1_000, ticks: [50, 20], machine: { busy: 100, total: 200 } },
    { at: 2_000, ticks: [150, 40], machine: { busy: 280, total: 400 } },
    { at: 3_000, ticks: [160, 45], machine: { busy: 300, total: 600 } },
  ];
  // From 1 s to 2 s, 100 ticks a second: the first process used a whole core, the second a fifth.
  expect(busyBetween(samples, 1_000, 2_000, 100)).toEqual({ cores: [1, 0.2], machine: 0.9, seconds: 1 });
  // Between samples: the window widens to the samples that hold it.
  expect(busyBetween(samples, 1_500, 2_500, 100)?.seconds).toBe(2);
  expect(busyBetween(samples.slice(0, 1), 0, 10, 100)).toBeUndefined();
});

test('the heaviest processes between two snapshots, most first; new ones count from zero, idle ones not at all', () => {
  const before = new Map([
    [1, { name: 'worker', ticks: 100 }],
    [2, { name: 'server', ticks: 500 }],
    [3, { name: 'idle', ticks: 7 }],
  ]);
  const after = new Map([
    [1, { name: 'worker', ticks: 300 }],
    [2, { name: 'server', ticks: 550 }],
    [3, { name: 'idle', ticks: 7 }],
    [4, { name: 'new', ticks: 80 }],
  ]);
  expect(topConsumers(before, after, 100)).toBe('worker(1) 2.00 s, new(4) 0.80 s, server(2) 0.50 s');
  expect(topConsumers(before, after, 100, 1)).toBe('worker(1) 2.00 s');
});
