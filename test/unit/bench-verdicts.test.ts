/**
 * The benchmark verdicts: history "flat" is judged from the measured bytes per round (last
 * rounds against the first rounds past the inline phase, within a stated tolerance), and a
 * benchmark that crashed makes the run exit non-zero while an unmet target does not.
 */
import { FLAT_TOLERANCE, FLAT_WINDOW, judgeFlat } from '../../bench/flat-verdict';
import { Report } from '../../bench/report';

/** `count` rounds of `bytes`, each `growth` bytes more than the one before. */
const rounds = (count: number, bytes: number, growth = 0): number[] =>
  Array.from({ length: count }, (_, i) => bytes + i * growth);

describe('judgeFlat', () => {
  test('constant bytes per round are flat', () => {
    expect(judgeFlat(rounds(100, 3700))).toEqual({ first: 3700, last: 3700, ratio: 1, met: true });
  });

  test('noise within the tolerance is flat; either direction beyond it is not', () => {
    const wobble = rounds(100, 3700).map((b, i) => b + (i % 2 === 0 ? 50 : -50));
    expect(judgeFlat(wobble)?.met).toBe(true);
    const grown = [...rounds(FLAT_WINDOW, 3700), ...rounds(FLAT_WINDOW, 3700 * (1 + FLAT_TOLERANCE + 0.01))];
    expect(judgeFlat(grown)?.met).toBe(false);
    const shrunk = [...rounds(FLAT_WINDOW, 3700), ...rounds(FLAT_WINDOW, 3700 * (1 - FLAT_TOLERANCE - 0.01))];
    expect(judgeFlat(shrunk)?.met).toBe(false);
  });

  test('a history that grows with the conversation is not flat', () => {
    // What an inline conversation would do: every round carries all earlier ones (+120 B each).
    const verdict = judgeFlat(rounds(400, 3700, 120));
    expect(verdict?.met).toBe(false);
    expect(verdict?.ratio).toBeGreaterThan(5);
  });

  test('too few rounds for two separate windows: nothing is judged', () => {
    expect(judgeFlat(rounds(2 * FLAT_WINDOW - 1, 3700))).toBeUndefined();
    expect(judgeFlat([])).toBeUndefined();
    expect(judgeFlat(rounds(10, 3700), { window: 5 })?.met).toBe(true);
  });
});

describe('Report', () => {
  test('a target not met is listed but does not fail the run', () => {
    const report = new Report();
    report.add({ benchmark: '1. X', figure: 'ratio', measured: '1.30', target: '≤ 1.10', met: false });
    report.add({ benchmark: '1. X', figure: 'makespan', measured: '3 s' });
    expect(report.unmet()).toEqual(['1. X | ratio']);
    expect(report.exitCode()).toBe(0);
  });

  test('a benchmark that crashed is an error row and fails the run', () => {
    const report = new Report();
    report.error('2. Y', 'crashed: agent ended | failed\nat line 2');
    expect(report.exitCode()).toBe(1);
    expect(report.rows).toEqual([
      { benchmark: '2. Y', figure: 'error', measured: 'crashed: agent ended / failed at line 2' },
    ]);
    const table = report.markdown(
      { date: 'd', nproc: 2, memory: '1 GiB', node: 'v20', temporal: 't', os: 'linux' },
      1000,
    );
    expect(table).toContain('| 2. Y | error | crashed: agent ended / failed at line 2 |  |  |');
  });
});
