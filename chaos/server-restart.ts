/**
 * Scenario b — dev server restarts: agents run on one worker process while the Temporal dev
 * server is stopped mid-run (first SIGTERM, later SIGKILL), left down for a moment and started
 * again on the same port with the same SQLite file. The worker is not restarted: it must
 * reconnect by itself, and every agent must resume and complete with each write done once.
 * Each restart must strike mid-run (some writes on disk, not all) and hold up work: an activity
 * or workflow task scheduled before the server went down and closed only after it was back, read
 * from history. So each strikes while a write call is open (the chaos tool's journal) and held
 * open (HOLD_WRITES_FILE) until the server is back, not at a moment the work may happen to be
 * between tasks. Toothless (CHAOS_TOOTHLESS=1), both restarts
 * come before the agents start.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from '../testkit/wait-until';
import { auditWrites } from './audit';
import { HOLD_WRITES_FILE } from './chaos-tools';
import { inFlightAcross, inFlightNote, type Outage } from './in-flight';
import { since } from './clock';
import { openCalls, readJournal } from './journal';
import type { Lab } from './lab';
import { proven, verify, type Scenario } from './verify';

/** Agents started (at the smallest size, one). */
export const RESTART_AGENTS = 8;

/** Each restart: the signal, and the share of writes (percent, low to high) on disk when it strikes. */
const RESTARTS: ['SIGTERM' | 'SIGKILL', number, number][] = [
  ['SIGTERM', 15, 35],
  ['SIGKILL', 55, 75],
];

const writesOnDisk = async (lab: Lab, ids: string[]) => (await auditWrites(lab.workspace, ids)).onDisk;

/** Runs the scenario. */
export const serverRestart: Scenario = async (lab, prng) => {
  const started = performance.now();
  const ids = lab.agentIds(lab.size(RESTART_AGENTS, 1));
  const { intended } = await auditWrites(lab.workspace, ids);
  const notes: string[] = [];
  const failures: string[] = [];
  let midRun = 0;
  const outages: { signal: string; outage: Outage }[] = [];
  const restart = async (signal: 'SIGTERM' | 'SIGKILL') => {
    const before = await writesOnDisk(lab, ids);
    const downMs = prng.between(1_000, 6_000);
    outages.push({ signal, outage: await lab.restartServer(signal, downMs) });
    if (before > 0 && before < intended) midRun++;
    notes.push(
      `${signal} to the dev server at ${since(started)} with ${before}/${intended} writes on disk, down ${downMs} ms`,
    );
  };
  if (lab.options.toothless) for (const [signal] of RESTARTS) await restart(signal);
  await lab.startAgents(ids);
  const worker = lab.nameOf(await lab.startWorker());
  // Mid-run: each restart strikes once the writes on disk pass a random share of the total, the
  // moment a write call is open (so an activity is in flight across it).
  for (const [signal, low, high] of lab.options.toothless ? [] : RESTARTS) {
    const floor = Math.ceil((intended * prng.between(low, high)) / 100);
    await waitUntil(`${floor} writes on disk`, async () => (await writesOnDisk(lab, ids)) >= floor, {
      timeoutMs: 90_000,
      intervalMs: 50,
    }).catch(() => failures.push(`no progress to ${floor} writes within 90 s before the ${signal} restart`));
    const hold = join(lab.workspace, HOLD_WRITES_FILE);
    writeFileSync(hold, '');
    try {
      await waitUntil('a write call open', async () => openCalls(await readJournal(lab.workspace), worker).length > 0, {
        timeoutMs: 30_000,
        intervalMs: 10,
      }).catch(() => notes.push(`no write call was open within 30 s of the ${signal} restart`));
      await restart(signal);
    } finally {
      rmSync(hold, { force: true });
    }
  }
  const verified = await verify(lab, ids, { started, notes, failures });
  if (lab.deadWorkers().length > 0) {
    verified.failures.push('the worker did not survive the dev server restarts (it did not reconnect by itself)');
  }
  let holding = 0;
  for (const { signal, outage } of outages) {
    const held = inFlightAcross(verified.findings.histories, outage);
    verified.notes.push(inFlightNote(held, `the ${signal} restart`));
    if (held.activities.length + held.workflowTasks.length > 0) holding++;
  }
  return proven(verified, [
    { what: 'dev server restarts that struck mid-run', found: midRun, needed: RESTARTS.length },
    {
      what: 'dev server restarts with work in flight across them (scheduled before, closed after, read from history)',
      found: holding,
      needed: RESTARTS.length,
    },
  ]);
};
