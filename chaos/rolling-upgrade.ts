/**
 * Scenario — rolling upgrade under load. Version 1 workers (build `chaos-v1`) serve agents
 * caught in every phase: steps mid-ReAct (`react`), a clarifying question open (`ask`), the plan
 * check open (`check`), writes waiting for approval (`approval`), a plan check whose expiry timer
 * will decide (`expiry`). A version 2 worker (`chaos-v2`, workflow code that cannot replay
 * version 1's histories) joins and is promoted; agents started after that (`late`) must run on
 * version 2 only; then the answers arrive. Every agent must complete with every write once and
 * no failed workflow task in any run; running steps finish on version 1; each earlier agent
 * moves to version 2 by continuing as new with no step open, every run after the move on
 * version 2; version 1 then reports drained and its worker is stopped. Toothless
 * (CHAOS_TOOTHLESS=1), version 2 is promoted before any agent starts: nothing is caught, nothing
 * moves, and the evidence falls short.
 */
import { describeDeployment } from '../temporal/deployments';
import { waitUntil } from '../testkit/wait-until';
import { stepWorkflowId } from '../workflows/base/ids';
import { STEP_IDS } from './agent-script';
import { since } from './clock';
import { Desk, partIds, promote, startParts, startVersions, V1, V2 } from './upgrade-lab';
import { partOf, upgradeScript, type Part } from './upgrade-script';
import { buildsOf, moveOf, runsOf } from './version-audit';
import { proven, verify, type Scenario } from './verify';

/** Agents per part caught at promotion, and agents started after it (at the smallest size, one). */
export const PER_PART = 5;

const CAUGHT: Part[] = ['react', 'ask', 'check', 'approval', 'expiry'];

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** Runs the scenario. */
export const rollingUpgrade: Scenario = async (lab, prng) => {
  const started = performance.now();
  lab.llm.respondWith(upgradeScript(prng.fork()));
  const { toothless } = lab.options;
  const failures: string[] = [];
  const { v1 } = await startVersions(lab);
  const perPart = lab.size(PER_PART, 1);
  const early = CAUGHT.flatMap((part) => partIds(lab, part, perPart));
  const late = partIds(lab, 'late', perPart);
  const all = [...early, ...late];
  const desk = new Desk(lab.agents, () => all);
  let promotedAt = 0;
  if (toothless) promotedAt = await promote(lab, V2);
  // Waiting parts first; expiry timers and mid-loop steps do not wait long, so they come last.
  const waiting = early.filter((id) => !['react', 'expiry'].includes(partOf(id) ?? ''));
  const brief = early.filter((id) => !waiting.includes(id));
  for (const ids of [waiting, brief]) {
    await startParts(lab.agents, ids);
    await desk.caught(ids).catch((err: unknown) => failures.push(`agents not caught in their phases: ${String(err)}`));
  }
  const caughtAt = since(started);
  if (!toothless) promotedAt = await promote(lab, V2);
  await startParts(lab.agents, late);
  desk.release();
  const result = await verify(lab, all, { started, failures });
  await desk.stop();

  // Which version ran what, from every run's history.
  const moves: number[] = [];
  let stepsFinishedOnV1 = 0;
  let expiredAfterPromotion = 0;
  for (const id of all) {
    const runs = await runsOf(lab.client, id);
    const part = partOf(id);
    const steps = await Promise.all(STEP_IDS.map(async (s) => runsOf(lab.client, stepWorkflowId(id, s))));
    for (const run of [...runs, ...steps.flat()]) {
      for (const failed of run.failedTasks) result.failures.push(`${id}: workflow task failed: ${failed}`);
    }
    if (part === 'late' || toothless) {
      const off = buildsOf([...runs, ...steps.flat()]).filter((b) => b !== V2.buildId);
      if (off.length > 0) result.failures.push(`${id} started after promotion but ran on ${off.join(', ')}`);
      continue;
    }
    const move = moveOf(runs, V1.buildId, V2.buildId);
    if ('problem' in move) result.failures.push(`${id} (${part}) did not move safely: ${move.problem}`);
    else moves.push(move.at - promotedAt);
    // Steps running at promotion finish on version 1; every step started after the move runs on version 2.
    const midLoop = part === 'react' || part === 'approval' ? ['s1', 's2'] : [];
    STEP_IDS.forEach((stepId, i) => {
      const builds = buildsOf(steps[i] ?? []);
      const want = midLoop.includes(stepId) ? V1.buildId : V2.buildId;
      if (builds.length !== 1 || builds[0] !== want) {
        result.failures.push(`${id} step ${stepId} ran on ${builds.join(', ') || 'nothing'}, expected ${want}`);
      } else if (want === V1.buildId) stepsFinishedOnV1++;
    });
    if (part === 'expiry' && runs[0]?.timersFiredAt.some((t) => t > promotedAt)) expiredAfterPromotion++;
  }

  // Version 1 drains once its last pinned agent moved or ended; then its worker may stop.
  const drainStarted = performance.now();
  const drained = await waitUntil(
    'chaos-v1 drained',
    async () =>
      (await describeDeployment(lab.client, 'default', V1.deploymentName))?.versions.some(
        (v) => v.buildId === V1.buildId && v.role === 'drained',
      ) ?? false,
    { timeoutMs: 60_000, intervalMs: 500 },
  ).then(
    () => true,
    () => false,
  );
  if (!drained) result.failures.push('chaos-v1 never reported drained');
  await lab.stopWorker(v1);
  const deployment = await describeDeployment(lab.client, 'default', V1.deploymentName);
  if (deployment?.current !== V2.buildId)
    result.failures.push(`current version is ${deployment?.current}, not chaos-v2`);

  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  result.notes.push(
    `${early.length} agents caught (${CAUGHT.map((p) => `${perPart} ${p}`).join(', ')}) at ${caughtAt}; ` +
      `${late.length} started after promoting chaos-v2`,
    `moves to chaos-v2: ${moves.length}/${early.length}, wait after promotion p50 ${seconds(percentile(moves, 50))}, ` +
      `max ${seconds(Math.max(0, ...moves))}`,
    `chaos-v1 ${drained ? `drained ${seconds(performance.now() - drainStarted)} after the last agent ended` : 'not drained'}; its worker stopped`,
  );
  return proven(result, [
    { what: 'agents moved to chaos-v2 at a safe boundary', found: moves.length, needed: early.length },
    { what: 'steps running at promotion that finished on chaos-v1', found: stepsFinishedOnV1, needed: 4 * perPart },
    { what: 'plan checks that expired after promotion', found: expiredAfterPromotion, needed: perPart },
  ]);
};
