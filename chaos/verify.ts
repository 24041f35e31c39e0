/**
 * The invariants every scenario checks once its disruptions are over: every agent completed,
 * every intended write is on disk exactly once (no duplicates, none missing, nothing else), no
 * workflow task failed (a determinism problem shows up there), every history could be read, and
 * no worker died that the scenario did not kill. Gathers the figures into a ScenarioResult, with the evidence the
 * scenario requires — kills that landed inside write calls, retried calls, interrupted writes
 * — counted from the chaos tool's journal.
 */
import { auditWrites } from './audit';
import { toolErrors } from './agent-script';
import type { Lab, LabOptions } from './lab';
import { killsInWrites, openCalls, readJournal } from './journal';
import { historyStats, readHistories, waitForAgents, workflowIdsOf } from './outcomes';
import type { Prng } from './prng';
import type { ScenarioResult } from './report';
import type { Evidence } from './verdict';

/** A scenario: disrupts a lab's agents and returns what it measured. */
export type Scenario = (lab: Lab, prng: Prng) => Promise<ScenarioResult>;

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

/** The least of each journal figure a scenario must show; one left out is not required. */
export interface Expected {
  /** Kills whose worker died with a `chaos_append` call open. */
  killsInWrites?: number;
  /** `chaos_append` calls invoked more than once. */
  retriedCalls?: number;
  /** Retries that found an earlier attempt cut inside the ledger's window (before or after writing). */
  interruptedWrites?: number;
}

/** What a scenario hands to `verify`. */
export interface VerifyOptions {
  /** `performance.now()` when the scenario began. */
  started: number;
  /** What the scenario did (kill moments, restarts), printed under its verdict. */
  notes?: string[];
  /** Invariants the scenario itself found broken. */
  failures?: string[];
  /** Journal evidence the scenario must show. */
  expected?: Expected;
  /** Further evidence the scenario counted itself (e.g. restarts that landed mid-run). */
  evidence?: Evidence[];
}

/** Waits for the agents, audits their writes, journal and histories, and builds the result. */
export async function verify(
  lab: LabView,
  ids: string[],
  { started, notes = [], failures = [], expected = {}, evidence = [] }: VerifyOptions,
): Promise<ScenarioResult> {
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
  const required = (what: string, found: number, needed: number | undefined): Evidence[] =>
    needed === undefined ? [] : [{ what, found, needed }];
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
    evidence: [
      ...required('kills that landed inside a chaos_append call', inWrites, expected.killsInWrites),
      ...required('chaos_append calls retried', audit.retriedCalls, expected.retriedCalls),
      ...required('interrupted writes a retry found', interrupted, expected.interruptedWrites),
      ...evidence,
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
    wallMs: performance.now() - started,
  };
}
