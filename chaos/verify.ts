/**
 * The invariants every scenario checks once its disruptions are over: every agent completed,
 * every intended write is on disk exactly once (no duplicates, none missing, nothing else), no
 * workflow task failed (a determinism problem shows up there), every history could be read, and
 * no worker died that the scenario did not kill. Gathers the figures, with what the chaos tool's
 * journal and the histories show — kills that landed inside write calls, retried calls,
 * interrupted writes. A scenario then turns that into its result with `proven`, declaring the
 * evidence it must show: the type takes no result without at least one piece.
 */
import { auditWrites } from './audit';
import { toolErrors } from './agent-script';
import type { Lab, LabOptions } from './lab';
import { killsInWrites, openCalls, readJournal } from './journal';
import { historyStats, readHistories, waitForAgents, workflowIdsOf, type Histories } from './outcomes';
import type { Prng } from './prng';
import type { ScenarioResult } from './report';
import type { DeclaredEvidence, Evidence } from './verdict';

/** A scenario's result with the evidence it declared (at least one piece, by type). */
export type ProvenResult = ScenarioResult & { evidence: DeclaredEvidence };

/** A scenario: disrupts a lab's agents and returns what it measured and what it had to show. */
export type Scenario = (lab: Lab, prng: Prng) => Promise<ProvenResult>;

/**
 * What `verify` reads of a lab: the chaos suite's Lab, or a scenario's view of the cluster
 * suite's world (cluster/world.ts), which runs its workers against a multi-process cluster.
 */
export type LabView = Pick<
  Lab,
  | 'agents'
  | 'client'
  | 'llm'
  | 'workspace'
  | 'workers'
  | 'deadWorkers'
  | 'killed'
  | 'kills'
  | 'workerRestarts'
  | 'serverRestarts'
> & { options: Pick<LabOptions, 'name'> };

/** How long agents may take to finish once the last disruption is over. */
export const SETTLE_TIMEOUT_MS = 150_000;

const lastLines = (text: string, count = 5): string => text.trim().split('\n').slice(-count).join(' | ');

/** What the journal and the histories showed, for a scenario's evidence. */
export interface Findings {
  /** Kills whose worker died with a `chaos_append` call open. */
  killsInWrites: number;
  /** `chaos_append` calls invoked more than once. */
  retriedCalls: number;
  /** Retries that found an earlier attempt cut inside the ledger's window (before or after writing). */
  interruptedWrites: number;
  /** The histories of the agents and their steps, as read after they ended. */
  histories: Histories;
}

/** What `verify` found: a result still without evidence, and the findings to draw it from. */
export type Verified = Omit<ScenarioResult, 'evidence'> & { findings: Findings };

/** What a scenario hands to `verify`. */
export interface VerifyOptions {
  /** `performance.now()` when the scenario began. */
  started: number;
  /** What the scenario did (kill moments, restarts), printed under its verdict. */
  notes?: string[];
  /** Invariants the scenario itself found broken. */
  failures?: string[];
}

/** Waits for the agents, audits their writes, journal and histories, and gathers the figures. */
export async function verify(
  lab: LabView,
  ids: string[],
  { started, notes = [], failures = [] }: VerifyOptions,
): Promise<Verified> {
  const outcomes = await waitForAgents(lab.agents, ids, {
    timeoutMs: SETTLE_TIMEOUT_MS,
    giveUp: () => lab.workers.length === lab.deadWorkers().length, // nobody left to run them
  });
  const audit = await auditWrites(lab.workspace, ids);
  const histories = await readHistories(lab.client, workflowIdsOf(ids));
  const history = historyStats(histories);
  const errors = toolErrors(lab.llm.requests);
  const dead = lab.deadWorkers();
  const journal = await readJournal(lab.workspace);
  const inWrites = killsInWrites(journal, lab.killed);
  const interrupted = audit.interruptedAfterWrite + audit.interruptedBeforeWrite;
  return {
    name: lab.options.name,
    runs: ids.length,
    completed: outcomes.completed.length,
    kills: lab.kills,
    killsInWrites: inWrites,
    restarts: lab.workerRestarts + lab.serverRestarts,
    writes: audit.onDisk,
    duplicates: audit.duplicates,
    missing: audit.missing,
    failures: [
      ...failures,
      ...outcomes.failures,
      ...audit.problems,
      ...histories.unread.map((u) => `could not read a history, so nothing in it was checked: ${u}`),
      ...history.workflowTaskFailures.map((f) => `workflow task failed: ${f}`),
      ...dead.map(
        (w) => `a worker died unkilled (exit ${w.process.exitCode ?? w.process.signalCode}): ${lastLines(w.output())}`,
      ),
    ],
    notes: [
      ...notes,
      `${audit.intended} writes intended; ${audit.retriedCalls} chaos_append calls retried: ` +
        `${audit.interruptedAfterWrite} found a write the ledger had not recorded yet, ` +
        `${audit.interruptedBeforeWrite} found an intent with no write, the others the ledger's result ` +
        `(or no entry, when the kill came before the intent was recorded)`,
      `kills: ${lab.killed.length === 0 ? 'none' : lab.killed.map((w) => `${w} (${openCalls(journal, w).length} chaos_append calls cut)`).join(', ')}`,
      `history: ${history.activityRetries} activity attempts beyond the first, ` +
        `${history.workflowTaskTimeouts} workflow task timeouts, ${history.workflowTaskFailures.length} workflow task failures`,
      ...errors.slice(0, 5).map((e) => `tool error seen by a step: ${e}`),
    ],
    findings: { killsInWrites: inWrites, retriedCalls: audit.retriedCalls, interruptedWrites: interrupted, histories },
    wallMs: performance.now() - started,
  };
}

/** The scenario's result: what `verify` found, judged by the evidence the scenario declares. */
export function proven(verified: Verified, evidence: DeclaredEvidence): ProvenResult {
  const { findings: _findings, ...result } = verified;
  return { ...result, evidence };
}

/** The journal's evidence, each needing at least `needed`. */
export const journalEvidence = {
  killsInWrites: ({ findings }: Verified, needed: number): Evidence => ({
    what: 'kills that landed inside a chaos_append call',
    found: findings.killsInWrites,
    needed,
  }),
  retriedCalls: ({ findings }: Verified, needed: number): Evidence => ({
    what: 'chaos_append calls retried',
    found: findings.retriedCalls,
    needed,
  }),
  interruptedWrites: ({ findings }: Verified, needed: number): Evidence => ({
    what: 'interrupted writes a retry found',
    found: findings.interruptedWrites,
    needed,
  }),
};
