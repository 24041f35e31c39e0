/**
 * How a cluster scenario runs: a batch of writing agents (the chaos suite's script) on the
 * world's two workers; once a random share of their writes is on disk, one strike; then the
 * chaos suite's `verify` (every agent completed, each write on disk exactly once) and the
 * cluster's own invariants — no Temporal service, worker or web server died that the scenario
 * did not stop, the fake LLM had a reply for every request and released every hold, and the web
 * server's health check says `up`. Last, the scenario declares the evidence that its fault hit
 * work, drawn from what the batch left behind (cluster/fault-evidence.ts); the result type takes
 * none without it.
 */
import { auditWrites } from '../chaos/audit';
import { since } from '../chaos/clock';
import type { Prng } from '../chaos/prng';
import type { ScenarioResult } from '../chaos/report';
import type { DeclaredEvidence, Evidence } from '../chaos/verdict';
import { proven, verify, type ProvenResult, type Verified } from '../chaos/verify';
import { waitUntil } from '../testkit/wait-until';
import { inFlightAcross, inFlightNote, type Outage } from '../chaos/in-flight';
import { ProgressWatch } from './progress-watch';
import type { ScenarioView } from './world';

/** Agents per scenario. */
export const CLUSTER_AGENTS = 8;

/** What a fault was and what it cost, for the fault table. */
export interface FaultFigures {
  scenario: string;
  fault: string;
  /** Writes on disk when it struck, e.g. `21/72`. */
  at: string;
  /** How long the faulty part was down (0 for a worker kill or no fault). */
  downMs: number;
  /** The longest an agent with writes left waited for its next write after the strike (none for the plan check). */
  stallMs?: number;
}

/** A scenario's verdict figures and its fault. */
export interface ClusterRun {
  result: ScenarioResult;
  fault: FaultFigures;
  /** Whether a fault struck while the batch ran (some writes on disk, not all). */
  struckMidRun: boolean;
}

/** A scenario's run: its result carries the evidence it declared. */
export type ProvenRun = ClusterRun & { result: ProvenResult };

export type ClusterScenario = (view: ScenarioView, prng: Prng) => Promise<ProvenRun>;

/** What a strike did. */
export interface Strike {
  downMs: number;
  notes: string[];
}

/** A strike that took a part of the cluster out for a while. */
export interface OutageStrike extends Strike {
  outage: Outage;
}

/** What a scenario's evidence is drawn from, once its agents ended. */
export interface Struck<S extends Strike> {
  view: ScenarioView;
  ids: string[];
  verified: Verified;
  strike: S;
  /** Writes on disk when the fault struck. */
  before: number;
  /** Writes the batch meant to make. */
  intended: number;
}

/** A scenario's declaration of what it must show; it may add notes to `verified`. */
export type Declare<S extends Strike> = (struck: Struck<S>) => Promise<DeclaredEvidence>;

const writesOnDisk = async (view: ScenarioView, ids: string[]) => (await auditWrites(view.workspace, ids)).onDisk;

/** Problems with the world as a whole: processes that died unasked, the fake LLM's misses, the web server's health. */
export async function worldProblems(view: ScenarioView): Promise<string[]> {
  const { world } = view;
  const problems = world.cluster
    .deadServices()
    .map((s) => `Temporal ${s.name} is down (${s.ending}); see ${s.logFile}`);
  problems.push(...view.llmProblems());
  if (!world.webAlive) problems.push('the web server (npm run web) died');
  else {
    const health = await fetch(`${world.webUrl}/healthz`)
      .then(async (r) => `${r.status} ${JSON.stringify(await r.json())}`)
      .catch((err: unknown) => `no answer (${err instanceof Error ? err.message : String(err)})`);
    if (!health.startsWith('200') || !health.includes('"temporal":"up"')) {
      problems.push(`the web server's /healthz says ${health}`);
    }
  }
  return problems;
}

/** Runs the batch, strikes once a random share (20–40 %) of its writes landed, verifies, and judges by `declare`. */
export async function underFault<S extends Strike>(
  view: ScenarioView,
  prng: Prng,
  fault: string,
  strike: () => Promise<S>,
  declare: Declare<S>,
): Promise<ProvenRun> {
  const started = performance.now();
  const ids = view.agentIds(CLUSTER_AGENTS);
  const { intended } = await auditWrites(view.workspace, ids);
  const watch = new ProgressWatch(view.workspace, ids);
  const failures: string[] = [];
  await view.startAgents(ids);
  const floor = Math.ceil((intended * prng.between(20, 40)) / 100);
  await waitUntil(`${floor} writes on disk`, async () => (await writesOnDisk(view, ids)) >= floor, {
    timeoutMs: 120_000,
    intervalMs: 50,
  }).catch(() => failures.push(`no progress to ${floor} writes within 120 s before the fault`));
  const before = await writesOnDisk(view, ids);
  const moment = performance.now();
  const done = await strike();
  const notes = [`${fault} at ${since(started)} with ${before}/${intended} writes on disk`, ...done.notes];
  const verified = await verify(view, ids, { started, notes, failures });
  await watch.stop();
  verified.failures.push(...(await worldProblems(view)));
  const evidence = await declare({ view, ids, verified, strike: done, before, intended });
  const stallMs = watch.longestStallAfter(moment);
  return {
    result: proven(verified, evidence),
    fault: { scenario: view.options.name, fault, at: `${before}/${intended}`, downMs: done.downMs, stallMs },
    struckMidRun: fault !== 'none' && midRun({ before, intended }),
  };
}

/** Whether the strike came while the batch ran: some of its writes on disk, not all. */
const midRun = ({ before, intended }: { before: number; intended: number }): boolean => before > 0 && before < intended;

/** The fault struck mid-run. */
export const struckMidRun = (struck: Struck<Strike>): Evidence => ({
  what: 'faults that struck mid-run (some writes on disk, not all)',
  found: midRun(struck) ? 1 : 0,
  needed: 1,
});

/** Activities and workflow tasks (of the workflows `among`, else all) outstanding across the whole outage. */
export function heldAcross(struck: Struck<OutageStrike>, what: string, among?: ReadonlySet<string>): Evidence {
  const found = inFlightAcross(struck.verified.findings.histories, struck.strike.outage, among);
  struck.verified.notes.push(inFlightNote(found, what));
  return {
    what: `activities and workflow tasks in flight across ${what} (scheduled before, closed after, read from history)`,
    found: found.activities.length + found.workflowTasks.length,
    needed: 1,
  };
}
