/**
 * The cluster suite's rows and verdict (run.ts): each run's result, and — when closing the world
 * found problems (the fake LLM had no reply for a request, a hold never released) — a FAIL row of
 * its own, `closing`, so a run whose every scenario passed still fails on them.
 */
import type { ScenarioResult } from '../chaos/report';
import { runVerdict, verdictOf, type Verdict } from '../chaos/verdict';

/** A FAIL row with nothing but `failures`: a scenario that crashed, or problems found when closing the world. */
export function failedRow(name: string, failures: string[], wallMs: number): ScenarioResult {
  const zero = { runs: 0, completed: 0, kills: 0, killsInWrites: 0, restarts: 0, writes: 0, duplicates: 0, missing: 0 };
  return { name, ...zero, failures, evidence: [], notes: [], wallMs };
}

/**
 * The suite's rows: the runs' results, then — when closing the world found problems — a FAIL row
 * named `closing` holding them (taking `wallMs`, the time closing took).
 */
export function suiteRows(results: readonly ScenarioResult[], problems: string[], wallMs: number): ScenarioResult[] {
  return problems.length > 0 ? [...results, failedRow('closing', problems, wallMs)] : [...results];
}

/** The suite's verdict over its rows, the closing row included. */
export function suiteVerdict(rows: readonly ScenarioResult[]): Verdict {
  return runVerdict(rows.map(verdictOf));
}
