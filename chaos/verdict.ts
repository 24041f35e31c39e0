/**
 * A scenario's verdict. Invariants that held are not enough: a run whose disruptions missed
 * every write proves nothing, so each scenario declares the evidence it must show (kills that
 * landed inside write calls, calls retried, interrupted writes found, work in flight across a
 * restart). Any broken invariant is FAIL; invariants held but evidence short of what was needed
 * — or no evidence declared at all, or evidence that needs nothing — is INCONCLUSIVE; only both
 * together are PASS. Both FAIL and INCONCLUSIVE fail the run.
 */

/** A fact the scenario must have shown for its pass to mean anything. */
export interface Evidence {
  /** What was counted, e.g. `kills that landed inside a write call`. */
  what: string;
  found: number;
  /** The least `found` that proves the point; below 1 it proves nothing and counts as unmet. */
  needed: number;
}

/**
 * The evidence a scenario declares: at least one fact. Scenarios return it by this type
 * (chaos/verify.ts `proven`), so a scenario that says nothing about what it must show does not
 * compile; `verdictOf` still treats an empty list as INCONCLUSIVE, for results built elsewhere.
 */
export type DeclaredEvidence = [Evidence, ...Evidence[]];

/** How the failure line of a scenario that crashed (threw) begins, before the error. */
export const SCENARIO_CRASHED = 'the scenario crashed: ';

/** A scenario's verdict; only PASS lets the run pass. */
export type Verdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE';

/** Whether `e` proves its point: it needs at least one and found as many. */
const met = (e: Evidence): boolean => e.needed >= 1 && e.found >= e.needed;

/** The evidence that fell short (or needed nothing, and so proves nothing). */
export function unmetEvidence(evidence: readonly Evidence[]): Evidence[] {
  return evidence.filter((e) => !met(e));
}

/** FAIL on any broken invariant, else INCONCLUSIVE while evidence is short or none was declared, else PASS. */
export function verdictOf({
  failures,
  evidence,
}: {
  failures: readonly string[];
  evidence: readonly Evidence[];
}): Verdict {
  if (failures.length > 0) return 'FAIL';
  return evidence.length === 0 || unmetEvidence(evidence).length > 0 ? 'INCONCLUSIVE' : 'PASS';
}

/** `3 kills that landed inside a write call (needed ≥ 1)`, with `SHORT:` in front when unmet. */
export function evidenceLine(e: Evidence): string {
  return `${met(e) ? '' : 'SHORT: '}${e.found} ${e.what} (needed ≥ ${e.needed})`;
}

/** The run's verdict: PASS only when every scenario passed; any FAIL outranks INCONCLUSIVE. */
export function runVerdict(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes('FAIL')) return 'FAIL';
  return verdicts.includes('INCONCLUSIVE') ? 'INCONCLUSIVE' : 'PASS';
}
