/**
 * Scenario a — worker kills: 20 agents whose steps write (two in parallel, then one after both)
 * arrive over the first 20 seconds and run on one worker process, which is SIGKILLed at random
 * moments (seeded) and restarted each time. Every other kill waits, after its random delay,
 * for the next `chaos_append` line to reach the disk and strikes at once — inside a write call,
 * where a retry would write again if the ledger failed. Afterwards every agent must have
 * completed and every intended write must be on disk exactly once; and the journal must show
 * that the kills did their job: at least one landed inside a write call, a call was retried,
 * and a retry found an interrupted write. Toothless (CHAOS_TOOTHLESS=1), every kill comes
 * before the first agent starts.
 */
import { nextWrite } from './aim';
import { auditWrites } from './audit';
import { pause, since } from './clock';
import { openCalls, readJournal } from './journal';
import { journalEvidence, proven, verify, type Scenario } from './verify';

/** Agents started (at the smallest size, one). */
export const KILL_AGENTS = 20;
/** SIGKILLs sent, each followed by a restart (at the smallest size, one). */
export const KILLS = 4;
/** Agents arrive over this long, so kills find them in different phases (at the smallest size, at once). */
const ARRIVAL_MS = 20_000;

/** Runs the scenario. */
export const workerKills: Scenario = async (lab, prng) => {
  const started = performance.now();
  const ids = lab.agentIds(lab.size(KILL_AGENTS, 1));
  const kills = lab.size(KILLS, 1);
  const notes: string[] = [];
  let worker = await lab.startWorker();
  const killAndRestart = async (kill: number, moment: string) => {
    const name = lab.nameOf(worker);
    await lab.killWorker(worker);
    const cut = openCalls(await readJournal(lab.workspace), name).length;
    const { onDisk, intended } = await auditWrites(lab.workspace, ids);
    notes.push(
      `kill ${kill} of ${name} (${moment}) at ${since(started)}: ${lab.agentsStarted}/${ids.length} agents started, ` +
        `${onDisk}/${intended} writes on disk, ${cut} chaos_append calls cut`,
    );
    worker = await lab.startWorker(true);
  };
  const { toothless } = lab.options;
  if (toothless) for (let kill = 1; kill <= kills; kill++) await killAndRestart(kill, 'toothless: no agent yet');
  // Settled to a value so a failed start cannot become an unhandled rejection during the kills.
  const arrivals = lab.startAgents(ids, { prng: prng.fork(), ms: lab.size(ARRIVAL_MS, 0) }).then(
    () => undefined,
    (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
  );
  for (let kill = 1; kill <= kills && !toothless; kill++) {
    await pause(prng.between(2_000, 6_000));
    const aimed = kill % 2 === 0;
    const moment = aimed ? ((await nextWrite(lab.workspace, ids)) ? 'just after a write' : 'no write came') : 'random';
    await killAndRestart(kill, moment);
  }
  const failed = await arrivals;
  if (failed !== undefined) throw failed;
  const verified = await verify(lab, ids, { started, notes });
  return proven(verified, [
    journalEvidence.killsInWrites(verified, 1),
    journalEvidence.retriedCalls(verified, 1),
    journalEvidence.interruptedWrites(verified, 1),
  ]);
};
