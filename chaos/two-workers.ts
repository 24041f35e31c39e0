/**
 * Scenario c — two workers, one killed: agents run on two worker processes sharing the task
 * queue; one of them (chosen at random) is SIGKILLed mid-run, at the moment it starts a
 * `chaos_append` call, and not restarted. The survivor must finish every agent, with each
 * write done once, and the journal must show the kill cut a call that was then retried. Both
 * workers poll before the agents start, so the one killed holds cached workflows and calls in
 * flight when it dies. Toothless (CHAOS_TOOTHLESS=1), the kill comes before the agents start.
 */
import { waitUntil } from '../testkit/wait-until';
import { nextCallStart } from './aim';
import { auditWrites } from './audit';
import { pause, since } from './clock';
import { journalEvidence, proven, verify, type Scenario } from './verify';

/** Agents started (at the smallest size, one). */
export const TWO_WORKER_AGENTS = 10;

/** Runs the scenario. */
export const twoWorkers: Scenario = async (lab, prng) => {
  const started = performance.now();
  const first = await lab.startWorker();
  const second = await lab.startWorker();
  const ids = lab.agentIds(lab.size(TWO_WORKER_AGENTS, 1));
  const victim = prng.between(1, 2) === 1 ? first : second;
  const failures: string[] = [];
  let moment = 'toothless: no agent yet';
  if (lab.options.toothless) await lab.killWorker(victim);
  await lab.startAgents(ids);
  const { intended } = await auditWrites(lab.workspace, ids);
  if (!lab.options.toothless) {
    const floor = Math.ceil((intended * prng.between(10, 50)) / 100);
    await waitUntil(`${floor} writes on disk`, async () => (await auditWrites(lab.workspace, ids)).onDisk >= floor, {
      timeoutMs: 90_000,
      intervalMs: 50,
    }).catch(() => failures.push(`no progress to ${floor} writes within 90 s before the kill`));
    await pause(prng.between(0, 1_000));
    moment = (await nextCallStart(lab.workspace, lab.nameOf(victim))) ? 'as it started a write' : 'no write came';
    await lab.killWorker(victim);
  }
  const { onDisk } = await auditWrites(lab.workspace, ids);
  const notes = [
    `killed ${lab.nameOf(victim)} of 2 (${moment}) at ${since(started)} with ${onDisk}/${intended} writes on disk`,
  ];
  const verified = await verify(lab, ids, { started, notes, failures });
  return proven(verified, [journalEvidence.killsInWrites(verified, 1), journalEvidence.retriedCalls(verified, 1)]);
};
