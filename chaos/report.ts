/**
 * A scenario's figures, the one-line verdict printed when it ends, and the final table of
 * every scenario: verdict, runs, kills (and how many landed inside a write call), restarts,
 * writes, duplicates, missing, failures and wall time.
 */
import { evidenceLine, runVerdict, verdictOf, type Evidence } from './verdict';

/** What a scenario measured and what went wrong. */
export interface ScenarioResult {
  name: string;
  /** Agents started. */
  runs: number;
  /** Agents that completed. */
  completed: number;
  /** Worker SIGKILLs. */
  kills: number;
  /** Kills whose worker died with a `chaos_append` call open (from the tool's journal). */
  killsInWrites: number;
  /** Worker restarts plus dev server restarts. */
  restarts: number;
  /** Writes found on disk, repeats included. */
  writes: number;
  duplicates: number;
  missing: number;
  /** Every broken invariant, one line each; empty when the scenario passed. */
  failures: string[];
  /** What the scenario had to show for a pass to mean anything; short or no evidence is INCONCLUSIVE. */
  evidence: Evidence[];
  /** What happened (kill moments, retries, history figures), printed under the verdict. */
  notes: string[];
  wallMs: number;
}

/** Failure lines printed per scenario; the count in the table is always complete. */
const MAX_FAILURE_LINES = 25;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The verdict line of one scenario, its evidence, notes and failures. */
export function scenarioLines(r: ScenarioResult): string[] {
  return [
    `${verdictOf(r)} ${r.name}: ${r.completed}/${r.runs} agents completed, ${r.kills} kills (${r.killsInWrites} ` +
      `landed inside a write call), ${r.restarts} restarts, ${r.writes} writes, ${r.duplicates} duplicates, ` +
      `${r.missing} missing, ${r.failures.length} failures, ${seconds(r.wallMs)}`,
    ...(r.evidence.length === 0
      ? ['    evidence: NONE DECLARED (a scenario that shows nothing proves nothing)']
      : r.evidence.map((e) => `    evidence: ${evidenceLine(e)}`)),
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
    'verdict',
    'runs',
    'completed',
    'kills',
    'in writes',
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
    verdictOf(r),
    r.runs,
    r.completed,
    r.kills,
    r.killsInWrites,
    r.restarts,
    r.writes,
    r.duplicates,
    r.missing,
    r.failures.length,
    seconds(r.wallMs),
  ]);
  rows.push([
    'total',
    runVerdict(results.map(verdictOf)),
    sum((r) => r.runs),
    sum((r) => r.completed),
    sum((r) => r.kills),
    sum((r) => r.killsInWrites),
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
