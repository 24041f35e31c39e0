/**
 * Scenario b — dev server restarts: agents run on one worker process while the Temporal dev
 * server is stopped mid-run (first SIGTERM, later SIGKILL), left down for a moment and started
 * again on the same port with the same SQLite file. The worker is not restarted: it must
 * reconnect by itself, and every agent must resume and complete with each write done once.
 */
import { waitUntil } from '../test/harness/wait-until';
import { auditWrites } from './audit';
import { since } from './clock';
import type { Lab } from './lab';
import type { Scenario } from './verify';
import { verify } from './verify';

/** Agents started. */
export const RESTART_AGENTS = 8;

const writesOnDisk = async (lab: Lab, ids: string[]) => (await auditWrites(lab.workspace, ids)).onDisk;

/** Runs the scenario. */
export const serverRestart: Scenario = async (lab, prng) => {
  const started = performance.now();
  const ids = lab.agentIds(RESTART_AGENTS);
  await lab.startAgents(ids);
  const notes: string[] = [];
  const failures: string[] = [];
  await lab.startWorker();
  const { intended } = await auditWrites(lab.workspace, ids);
  // Mid-run: each restart strikes once the writes on disk pass a random share of the total.
  const restarts: ['SIGTERM' | 'SIGKILL', number, number][] = [
    ['SIGTERM', 15, 35],
    ['SIGKILL', 55, 75],
  ];
  for (const [signal, low, high] of restarts) {
    const floor = Math.ceil((intended * prng.between(low, high)) / 100);
    await waitUntil(`${floor} writes on disk`, async () => (await writesOnDisk(lab, ids)) >= floor, {
      timeoutMs: 90_000,
      intervalMs: 50,
    }).catch(() => failures.push(`no progress to ${floor} writes within 90 s before the ${signal} restart`));
    const before = await writesOnDisk(lab, ids);
    const downMs = prng.between(1_000, 6_000);
    await lab.restartServer(signal, downMs);
    notes.push(
      `${signal} to the dev server at ${since(started)} with ${before}/${intended} writes on disk, down ${downMs} ms`,
    );
  }
  const result = await verify(lab, ids, { started, notes, failures });
  if (lab.deadWorkers().length > 0) {
    result.failures.push('the worker did not survive the dev server restarts (it did not reconnect by itself)');
  }
  return result;
};
