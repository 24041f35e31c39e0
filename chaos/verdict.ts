/**
 * A scenario's verdict. Invariants that held are not enough: a run whose disruptions missed
 * every write proves nothing, so each scenario states the evidence it must show (kills that
 * landed inside write calls, calls retried, interrupted writes found, restarts mid-run). Any
 * broken invariant is FAIL; invariants held but evidence short of what was needed is
 * INCONCLUSIVE; only both together are PASS. Both FAIL and INCONCLUSIVE fail the run.
 */

/** A fact the scenario must have shown for its pass to mean anything. */
export interface Evidence {
  /** What was counted, e.g. `kills that landed inside a write call`. */
  what: string;
  found: number;
  /** The least `found` that proves the point. */
  needed: number;
}

/** A scenario's verdict; only PASS lets the run pass. */
export type Verdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE';

/** The evidence that fell short. */
export function unmetEvidence(evidence: readonly Evidence[]): Evidence[] {
  return evidence.filter((e) => e.found < e.needed);
}

/** FAIL on any broken invariant, else INCONCLUSIVE while evidence is short, else PASS. */
export function verdictOf({
  failures,
  evidence,
}: {
  failures: readonly string[];
  evidence: readonly Evidence[];
}): Verdict {
  if (failures.length > 0) return 'FAIL';
  return unmetEvidence(evidence).length > 0 ? 'INCONCLUSIVE' : 'PASS';
}

/** `3 kills that landed inside a write call (needed ≥ 1)`, with `SHORT:` in front when unmet. */
export function evidenceLine(e: Evidence): string {
  return `${e.found < e.needed ? 'SHORT: ' : ''}${e.found} ${e.what} (needed ≥ ${e.needed})`;
}

/** The run's verdict: PASS only when every scenario passed; any FAIL outranks INCONCLUSIVE. */
export function runVerdict(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes('FAIL')) return 'FAIL';
  return verdicts.includes('INCONCLUSIVE') ? 'INCONCLUSIVE' : 'PASS';
}
