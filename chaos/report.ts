/**
 * A scenario's figures, the one-line verdict printed when it ends, and the final table of
 * every scenario: runs, kills, restarts, writes, duplicates, missing, failures and wall time.
 */

/** What a scenario measured and what went wrong. */
export interface ScenarioResult {
  name: string;
  /** Agents started. */
  runs: number;
  /** Agents that completed. */
  completed: number;
  /** Worker SIGKILLs. */
  kills: number;
  /** Worker restarts plus dev server restarts. */
  restarts: number;
  /** Writes found on disk, repeats included. */
  writes: number;
  duplicates: number;
  missing: number;
  /** Every broken invariant, one line each; empty when the scenario passed. */
  failures: string[];
  /** Evidence lines (retries, interrupted writes), printed under the verdict. */
  notes: string[];
  wallMs: number;
}

/** Failure lines printed per scenario; the count in the table is always complete. */
const MAX_FAILURE_LINES = 25;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The verdict line of one scenario, its notes and its failures. */
export function scenarioLines(r: ScenarioResult): string[] {
  const verdict = r.failures.length === 0 ? 'PASS' : 'FAIL';
  return [
    `${verdict} ${r.name}: ${r.completed}/${r.runs} agents completed, ${r.kills} kills, ${r.restarts} restarts, ` +
      `${r.writes} writes, ${r.duplicates} duplicates, ${r.missing} missing, ${r.failures.length} failures, ${seconds(r.wallMs)}`,
    ...r.notes.map((n) => `    ${n}`),
    ...r.failures.slice(0, MAX_FAILURE_LINES).map((f) => `    FAILURE: ${f}`),
    ...(r.failures.length > MAX_FAILURE_LINES
      ? [`    … and ${r.failures.length - MAX_FAILURE_LINES} more failures`]
      : []),
  ];
}

/** The final table, with a total row. */
export function summaryTable(results: ScenarioResult[], totalMs: number): string {
  const header = [
    'scenario',
    'runs',
    'completed',
    'kills',
    'restarts',
    'writes',
    'duplicates',
    'missing',
    'failures',
    'wall',
  ];
  const sum = (pick: (r: ScenarioResult) => number) => results.reduce((a, r) => a + pick(r), 0);
  const rows = results.map((r) => [
    r.name,
    r.runs,
    r.completed,
    r.kills,
    r.restarts,
    r.writes,
    r.duplicates,
    r.missing,
    r.failures.length,
    seconds(r.wallMs),
  ]);
  rows.push([
    'total',
    sum((r) => r.runs),
    sum((r) => r.completed),
    sum((r) => r.kills),
    sum((r) => r.restarts),
    sum((r) => r.writes),
    sum((r) => r.duplicates),
    sum((r) => r.missing),
    sum((r) => r.failures.length),
    seconds(totalMs),
  ]);
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [
    line(header),
    rule,
    ...rows.slice(0, -1).map((r) => line(r.map(String))),
    rule,
    line(cells.at(-1) ?? []),
  ].join('\n');
}
