/**
 * The cluster suite's close-time row (cluster/suite-results.ts, used by cluster/run.ts): problems
 * found only when closing the world — a request the fake LLM had no reply for, a hold never
 * released — are a FAIL row of their own, `closing`, which fails a run whose every scenario passed.
 */
import type { ScenarioResult } from '../../chaos/report';
import { failedRow, suiteRows, suiteVerdict } from '../../cluster/suite-results';

/** A scenario row that passed: no failure, its evidence met. */
const passed = (name: string): ScenarioResult => ({
  ...failedRow(name, [], 1_000),
  runs: 2,
  completed: 2,
  evidence: [{ what: 'agents in flight across the fault', found: 2, needed: 1 }],
});

test('closing found nothing: no row of its own, and scenarios that passed pass the suite', () => {
  const rows = suiteRows([passed('baseline'), passed('history-kill')], [], 5);
  expect(rows.map((r) => r.name)).toEqual(['baseline', 'history-kill']);
  expect(suiteVerdict(rows)).toBe('PASS');
});

test('closing found problems: a FAIL row named closing holding them fails a suite whose scenarios all passed', () => {
  const problems = ['the fake LLM had no reply for 1 request: step:s1 of cluster-a', 'a hold was never released'];
  const rows = suiteRows([passed('baseline'), passed('history-kill')], problems, 42);
  expect(rows.map((r) => r.name)).toEqual(['baseline', 'history-kill', 'closing']);
  expect(rows.at(-1)).toMatchObject({ name: 'closing', failures: problems, evidence: [], runs: 0, wallMs: 42 });
  expect(suiteVerdict(rows)).toBe('FAIL');
});

test('a crashed scenario is a FAIL row, as a closing problem is', () => {
  expect(suiteVerdict([passed('baseline'), failedRow('upload', ['the scenario crashed: boom'], 3)])).toBe('FAIL');
});
