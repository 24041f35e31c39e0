/**
 * The cluster suite's scenarios. Each starts a batch of writing agents (the chaos suite's
 * script) on the world's two workers and, once a random share of their writes is on disk,
 * strikes once: SIGKILL a history host (its shards move to the other) and start it again,
 * restart the frontend, crash and restart PostgreSQL, SIGKILL a Cairn worker as it starts a
 * write (and start another). A baseline batch runs without a fault first, for comparison. Then
 * the chaos suite's `verify` checks every agent completed with each write on disk exactly
 * once, and the scenario adds the cluster's own invariants: no Temporal service, worker or web
 * server died that the scenario did not stop, the fake LLM had a reply for every request and
 * released every hold, and the web server's health check says `up`.
 */
import { readFileSync, statSync } from 'node:fs';
import { nextCallStart } from '../chaos/aim';
import { auditWrites } from '../chaos/audit';
import { pause, since } from '../chaos/clock';
import type { Prng } from '../chaos/prng';
import type { ScenarioResult } from '../chaos/report';
import type { Evidence } from '../chaos/verdict';
import { verify, type Expected } from '../chaos/verify';
import { waitUntil } from '../testkit/wait-until';
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
}

/** What a strike did. */
interface Strike {
  downMs: number;
  notes: string[];
  evidence?: Evidence[];
}

export type ClusterScenario = (view: ScenarioView, prng: Prng) => Promise<ClusterRun>;

const writesOnDisk = async (view: ScenarioView, ids: string[]) => (await auditWrites(view.workspace, ids)).onDisk;

/** Problems with the world as a whole: processes that died unasked, the fake LLM's misses, the web server's health. */
async function worldProblems(view: ScenarioView): Promise<string[]> {
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

/** Runs `count` agents, strikes once a random share (percent, low to high) of their writes landed, and verifies. */
async function underFault(
  view: ScenarioView,
  prng: Prng,
  fault: string,
  strike: () => Promise<Strike>,
  expected: Expected = {},
): Promise<ClusterRun> {
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
  const midRun = before > 0 && before < intended ? 1 : 0;
  const evidence: Evidence[] = [
    ...(fault === 'none' ? [] : [{ what: `faults that struck mid-run`, found: midRun, needed: 1 }]),
    ...(done.evidence ?? []),
  ];
  const result = await verify(view, ids, { started, notes, failures, expected, evidence });
  await watch.stop();
  result.failures.push(...(await worldProblems(view)));
  const stallMs = watch.longestStallAfter(moment);
  return {
    result,
    fault: { scenario: view.options.name, fault, at: `${before}/${intended}`, downMs: done.downMs, stallMs },
  };
}

/** `"msg":"Acquired shard"` lines in a history host's log from byte `from` on. */
function shardsAcquired(logFile: string, from: number): number[] {
  const text = readFileSync(logFile, 'utf8').slice(from);
  return text
    .split('\n')
    .filter((line) => line.includes('"msg":"Acquired shard"'))
    .map((line) => Number(/"shard-id":(\d+)/.exec(line)?.[1] ?? -1));
}

const sizeOf = (path: string): number => statSync(path).size;

/** No fault: what a batch costs on a healthy cluster. */
export const baseline: ClusterScenario = (view, prng) =>
  underFault(view, prng, 'none', () => Promise.resolve({ downMs: 0, notes: [] }));

/** SIGKILL history-1 mid-run; once history-2 took over its shards, start it again. */
export const historyKill: ClusterScenario = (view, prng) =>
  underFault(view, prng, 'SIGKILL history-1', async () => {
    const { cluster } = view.world;
    const victim = cluster.service('history-1');
    const survivor = cluster.service('history-2');
    const from = sizeOf(survivor.logFile);
    const killedAt = performance.now();
    await victim.stop('SIGKILL');
    view.serverRestarts++;
    const moved = await waitUntil(
      'history-2 acquires history-1 shards',
      () => {
        const shards = shardsAcquired(survivor.logFile, from);
        return shards.length > 0 ? shards : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 100 },
    ).catch(() => [] as number[]);
    const movedMs = performance.now() - killedAt;
    await pause(prng.between(1_000, 3_000));
    await victim.start();
    const downMs = performance.now() - killedAt;
    return {
      downMs,
      notes: [
        `history-2 acquired shards ${moved.join(', ') || 'none'} ${(movedMs / 1000).toFixed(1)} s after the kill; ` +
          `history-1 down ${(downMs / 1000).toFixed(1)} s`,
      ],
      evidence: [{ what: 'shards history-2 took over from the killed host', found: moved.length, needed: 1 }],
    };
  });

/** Stop the frontend (SIGTERM) mid-run, leave it down a moment, start it again on the same port. */
export const frontendRestart: ClusterScenario = (view, prng) =>
  underFault(view, prng, 'restart the frontend', async () => {
    const frontend = view.world.cluster.service('frontend');
    const stoppedAt = performance.now();
    await frontend.stop('SIGTERM');
    view.serverRestarts++;
    await pause(prng.between(2_000, 5_000));
    await frontend.start();
    return { downMs: performance.now() - stoppedAt, notes: [] };
  });

/** Crash PostgreSQL (immediate stop: recovery from the WAL at start) mid-run and start it again. */
export const postgresRestart: ClusterScenario = (view, prng) =>
  underFault(view, prng, 'crash and restart PostgreSQL', async () => {
    const { postgres } = view.world.cluster;
    const stoppedAt = performance.now();
    await postgres.stop('immediate');
    view.serverRestarts++;
    await pause(prng.between(2_000, 5_000));
    await postgres.start();
    return { downMs: performance.now() - stoppedAt, notes: [] };
  });

/** SIGKILL one of the two Cairn workers as it starts a write, then start a replacement. */
export const workerKill: ClusterScenario = (view, prng) =>
  underFault(
    view,
    prng,
    'SIGKILL a Cairn worker',
    async () => {
      const { world } = view;
      const victim = world.workers[prng.between(0, world.workers.length - 1)];
      if (!victim) throw new Error('no worker to kill');
      const name = world.nameOf(victim);
      const aimed = await nextCallStart(view.workspace, name);
      await view.killWorker(victim);
      const replacement = await world.startWorker();
      view.workerRestarts++;
      return {
        downMs: 0,
        notes: [
          `killed ${name} ${aimed ? 'as it started a write' : '(no write came in time)'}; ` +
            `${world.nameOf(replacement)} started in its place`,
        ],
      };
    },
    { killsInWrites: 1, retriedCalls: 1 },
  );
