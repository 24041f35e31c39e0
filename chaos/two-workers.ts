/**
 * Scenario c — two workers, one killed: agents run on two worker processes sharing the task
 * queue; one of them (chosen at random) is SIGKILLed mid-run and not restarted. The survivor
 * must finish every agent, with each write done once. Both workers poll before the agents
 * start, so the one killed holds cached workflows and calls in flight when it dies.
 */
import { waitUntil } from '../test/harness/wait-until';
import { auditWrites } from './audit';
import { pause, since } from './clock';
import type { Scenario } from './verify';
import { verify } from './verify';

/** Agents started. */
export const TWO_WORKER_AGENTS = 10;

/** Runs the scenario. */
export const twoWorkers: Scenario = async (lab, prng) => {
  const started = performance.now();
  const first = await lab.startWorker();
  const second = await lab.startWorker();
  const ids = lab.agentIds(TWO_WORKER_AGENTS);
  await lab.startAgents(ids);
  const victim = prng.between(1, 2);
  const { intended } = await auditWrites(lab.workspace, ids);
  const floor = Math.ceil((intended * prng.between(10, 50)) / 100);
  const failures: string[] = [];
  await waitUntil(`${floor} writes on disk`, async () => (await auditWrites(lab.workspace, ids)).onDisk >= floor, {
    timeoutMs: 90_000,
    intervalMs: 50,
  }).catch(() => failures.push(`no progress to ${floor} writes within 90 s before the kill`));
  await pause(prng.between(0, 1_000));
  const { onDisk } = await auditWrites(lab.workspace, ids);
  await lab.killWorker(victim === 1 ? first : second);
  const notes = [`killed worker ${victim} of 2 at ${since(started)} with ${onDisk}/${intended} writes on disk`];
  return verify(lab, ids, { started, notes, failures });
};
