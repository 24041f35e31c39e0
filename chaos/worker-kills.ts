/**
 * Scenario a — worker kills: 20 agents whose steps write (two in parallel, then one after both)
 * arrive over the first 20 seconds and run on one worker process, which is SIGKILLed at random
 * moments (seeded) and restarted each time. Every other kill waits, after its random delay,
 * for the next `chaos_append` line to reach the disk and strikes at once — inside a write call,
 * where a retry would write again if the ledger failed. Afterwards every agent must have
 * completed and every intended write must be on disk exactly once.
 */
import { waitUntil } from '../test/harness/wait-until';
import { appendedLines, auditWrites } from './audit';
import { pause, since } from './clock';
import type { Lab } from './lab';
import type { Scenario } from './verify';
import { verify } from './verify';

/** Agents started. */
export const KILL_AGENTS = 20;
/** SIGKILLs sent, each followed by a restart. */
export const KILLS = 4;
/** Agents arrive over this long, so kills find them in different phases. */
const ARRIVAL_MS = 20_000;

/** Resolves as soon as one more appended line is on disk; false when none came in time. */
async function nextWrite(lab: Lab, ids: string[]): Promise<boolean> {
  const seen = await appendedLines(lab.workspace, ids);
  return waitUntil('the next write', async () => (await appendedLines(lab.workspace, ids)) > seen, {
    timeoutMs: 20_000,
    intervalMs: 10,
  }).catch(() => false);
}

/** Runs the scenario. */
export const workerKills: Scenario = async (lab, prng) => {
  const started = performance.now();
  const ids = lab.agentIds(KILL_AGENTS);
  const notes: string[] = [];
  let worker = await lab.startWorker();
  // Settled to a value so a failed start cannot become an unhandled rejection during the kills.
  const arrivals = lab.startAgents(ids, { prng: prng.fork(), ms: ARRIVAL_MS }).then(
    () => undefined,
    (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
  );
  for (let kill = 1; kill <= KILLS; kill++) {
    await pause(prng.between(2_000, 6_000));
    const moment = kill % 2 === 0 ? ((await nextWrite(lab, ids)) ? 'just after a write' : 'no write came') : 'random';
    await lab.killWorker(worker);
    const { onDisk, intended } = await auditWrites(lab.workspace, ids);
    notes.push(
      `kill ${kill} (${moment}) at ${since(started)}: ${lab.agentsStarted}/${ids.length} agents started, ` +
        `${onDisk}/${intended} writes on disk`,
    );
    worker = await lab.startWorker(true);
  }
  const failed = await arrivals;
  if (failed !== undefined) throw failed;
  return verify(lab, ids, { started, notes });
};
