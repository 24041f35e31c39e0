/**
 * The invariants every scenario checks once its disruptions are over: every agent completed,
 * every intended write is on disk exactly once (no duplicates, none missing, nothing else),
 * and no worker died that the scenario did not kill. Gathers the figures and evidence into a
 * ScenarioResult.
 */
import { auditWrites } from './audit';
import { toolErrors } from './agent-script';
import type { Lab } from './lab';
import { historyStats, waitForAgents } from './outcomes';
import type { Prng } from './prng';
import type { ScenarioResult } from './report';

/** A scenario: disrupts a lab's agents and returns what it measured. */
export type Scenario = (lab: Lab, prng: Prng) => Promise<ScenarioResult>;

/** How long agents may take to finish once the last disruption is over. */
export const SETTLE_TIMEOUT_MS = 150_000;

const lastLines = (text: string, count = 5): string => text.trim().split('\n').slice(-count).join(' | ');

/**
 * Waits for the agents, audits their writes and histories, and builds the result.
 * @param notes what the scenario did (kill moments, restarts), printed under its verdict.
 * @param failures invariants the scenario itself found broken.
 */
export async function verify(
  lab: Lab,
  ids: string[],
  { started, notes = [], failures = [] }: { started: number; notes?: string[]; failures?: string[] },
): Promise<ScenarioResult> {
  const outcomes = await waitForAgents(lab.agents, ids, {
    timeoutMs: SETTLE_TIMEOUT_MS,
    giveUp: () => lab.workers.length === lab.deadWorkers().length, // nobody left to run them
  });
  const audit = await auditWrites(lab.workspace, ids);
  const history = await historyStats(lab.client, ids);
  const errors = toolErrors(lab.llm.requests);
  const dead = lab.deadWorkers();
  return {
    name: lab.options.name,
    runs: ids.length,
    completed: outcomes.completed.length,
    kills: lab.kills,
    restarts: lab.workerRestarts + lab.serverRestarts,
    writes: audit.onDisk,
    duplicates: audit.duplicates,
    missing: audit.missing,
    failures: [
      ...failures,
      ...outcomes.failures,
      ...audit.problems,
      ...dead.map(
        (w) => `a worker died unkilled (exit ${w.process.exitCode ?? w.process.signalCode}): ${lastLines(w.output())}`,
      ),
    ],
    notes: [
      ...notes,
      `${audit.intended} writes intended; ${audit.retriedCalls} chaos_append calls retried: ` +
        `${audit.retriedCalls - audit.interruptedAfterWrite - audit.interruptedBeforeWrite} found the result in the ledger, ` +
        `${audit.interruptedAfterWrite} found a write the ledger had not recorded yet, ` +
        `${audit.interruptedBeforeWrite} found an intent with no write`,
      `history: ${history.activityRetries} activity attempts beyond the first, ` +
        `${history.workflowTaskTimeouts} workflow task timeouts, ${history.workflowTaskFailures.length} workflow task failures`,
      ...history.workflowTaskFailures.slice(0, 5).map((f) => `workflow task failure: ${f}`),
      ...errors.slice(0, 5).map((e) => `tool error seen by a step: ${e}`),
    ],
    wallMs: performance.now() - started,
  };
}
