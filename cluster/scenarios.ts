/**
 * The cluster suite's scenarios, each a batch of writing agents with one strike
 * (cluster/under-fault.ts): SIGKILL a history host (its shards move to the other) and start it
 * again, restart the frontend, crash and restart PostgreSQL, SIGKILL a Cairn worker as it starts
 * a write (and start another) — and a baseline batch without a fault first, for comparison. Each
 * declares what shows its fault hit work: a fault struck mid-run, and then, read after the batch
 * ended, work on the killed host's shards held up until they moved; activities and workflow
 * tasks in flight across the frontend's or PostgreSQL's outage; updates of the batch's workflows
 * the history service failed to persist while PostgreSQL was down; a worker kill that cut a
 * write call, retried since.
 */
import { nextCallStart } from '../chaos/aim';
import { pause } from '../chaos/clock';
import { workflowIdsOf } from '../chaos/outcomes';
import { journalEvidence } from '../chaos/verify';
import { waitUntil } from '../testkit/wait-until';
import { failedUpdates, logEnd, logLines, shardsOf } from './fault-evidence';
import { heldAcross, struckMidRun, underFault, type ClusterScenario } from './under-fault';

/** `"msg":"Acquired shard"` lines in a history host's log from byte `from` on. */
function shardsAcquired(logFile: string, from: number): number[] {
  return logLines(logFile, from, logEnd(logFile))
    .filter((line) => line.includes('"msg":"Acquired shard"'))
    .map((line) => Number(/"shard-id":(\d+)/.exec(line)?.[1] ?? -1));
}

/** No fault: what a batch costs on a healthy cluster. */
export const baseline: ClusterScenario = (view, prng) =>
  underFault(
    view,
    prng,
    'none',
    () => Promise.resolve({ downMs: 0, notes: [] }),
    ({ verified, ids }) =>
      Promise.resolve([
        {
          what: 'agents that completed on the healthy cluster (the baseline the faults compare with)',
          found: verified.completed,
          needed: ids.length,
        },
      ]),
  );

/** SIGKILL history-1 mid-run; once history-2 took over its shards, start it again. */
export const historyKill: ClusterScenario = (view, prng) =>
  underFault(
    view,
    prng,
    'SIGKILL history-1',
    async () => {
      const { cluster } = view.world;
      const victim = cluster.service('history-1');
      const survivor = cluster.service('history-2');
      const from = logEnd(survivor.logFile);
      const killedAt = performance.now();
      await victim.stop('SIGKILL');
      const outage = { from: Date.now(), to: 0 }; // its shards are out until history-2 takes them
      view.serverRestarts++;
      const moved = await waitUntil(
        'history-2 acquires history-1 shards',
        () => {
          const shards = shardsAcquired(survivor.logFile, from);
          return shards.length > 0 ? shards : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 100 },
      ).catch(() => [] as number[]);
      outage.to = Date.now();
      const movedMs = performance.now() - killedAt;
      await pause(prng.between(1_000, 3_000));
      await victim.start();
      const downMs = performance.now() - killedAt;
      return {
        downMs,
        outage,
        moved,
        notes: [
          `history-2 acquired shards ${moved.join(', ') || 'none'} ${(movedMs / 1000).toFixed(1)} s after the kill; ` +
            `history-1 down ${(downMs / 1000).toFixed(1)} s`,
        ],
      };
    },
    async (struck) => {
      const { moved } = struck.strike;
      const onMoved = new Set<string>();
      try {
        const shards = await shardsOf(struck.view.world.cluster.postgres, workflowIdsOf(struck.ids));
        for (const [id, shard] of shards) if (moved.includes(shard)) onMoved.add(id);
      } catch (err) {
        struck.verified.failures.push(`could not read the workflows' shards from PostgreSQL: ${String(err)}`);
      }
      return [
        struckMidRun(struck),
        { what: 'shards history-2 took over from the killed host', found: moved.length, needed: 1 },
        heldAcross(struck, `the kill on the shards that moved (${onMoved.size} of the batch's workflows)`, onMoved),
      ];
    },
  );

/** Stop the frontend (SIGTERM) mid-run, leave it down a moment, start it again on the same port. */
export const frontendRestart: ClusterScenario = (view, prng) =>
  underFault(
    view,
    prng,
    'restart the frontend',
    async () => {
      const frontend = view.world.cluster.service('frontend');
      const stoppedAt = performance.now();
      await frontend.stop('SIGTERM');
      const outage = { from: Date.now(), to: 0 };
      view.serverRestarts++;
      await pause(prng.between(2_000, 5_000));
      await frontend.start();
      outage.to = Date.now();
      return { downMs: performance.now() - stoppedAt, outage, notes: [] };
    },
    (struck) => Promise.resolve([struckMidRun(struck), heldAcross(struck, 'the frontend restart')]),
  );

/** Crash PostgreSQL (immediate stop: recovery from the WAL at start) mid-run and start it again. */
export const postgresRestart: ClusterScenario = (view, prng) =>
  underFault(
    view,
    prng,
    'crash and restart PostgreSQL',
    async () => {
      const { postgres, services } = view.world.cluster;
      const logs = [...services.values()].map((s) => ({ file: s.logFile, from: logEnd(s.logFile) }));
      const stoppedAt = performance.now();
      await postgres.stop('immediate');
      const outage = { from: Date.now(), to: 0 };
      view.serverRestarts++;
      await pause(prng.between(2_000, 5_000));
      await postgres.start();
      outage.to = Date.now();
      return { downMs: performance.now() - stoppedAt, outage, logs, notes: [] };
    },
    (struck) => {
      const batch = new Set(workflowIdsOf(struck.ids));
      // From the crash until the batch ended: the history service logs each failed write with its workflow.
      const failed = struck.strike.logs.flatMap(({ file, from }) => failedUpdates(file, from, batch));
      const some = [...new Set(failed)].slice(0, 4).join(', ');
      struck.verified.notes.push(
        `${failed.length} workflow updates of the batch failed to persist while PostgreSQL was down${some ? ` (${some}, …)` : ''}`,
      );
      return Promise.resolve([
        struckMidRun(struck),
        {
          what: "updates of the batch's workflows the history service failed to persist (its log, from the crash on)",
          found: failed.length,
          needed: 1,
        },
        heldAcross(struck, 'the PostgreSQL restart'),
      ]);
    },
  );

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
    (struck) =>
      Promise.resolve([
        struckMidRun(struck),
        journalEvidence.killsInWrites(struck.verified, 1),
        journalEvidence.retriedCalls(struck.verified, 1),
      ]),
  );
