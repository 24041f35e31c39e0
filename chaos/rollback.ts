/**
 * Scenario — rollback. Agents wait at their plan check on version 1 (`check`); version 2 is
 * promoted and more agents start on it and wait at theirs (`late`); then version 1 is made
 * current again before anyone answers. Every agent must finish on version 1: those of version 1
 * never leave it (the move they were due was called off before their next workflow task), those
 * of version 2 move back at their first safe boundary, and every step of every agent runs on
 * version 1 — with every write once and no failed workflow task. Toothless
 * (CHAOS_TOOTHLESS=1), the rollback comes before any agent starts: no agent ever ran on
 * version 2, and the evidence falls short.
 */
import { stepWorkflowId } from '../workflows/base/ids';
import { STEP_IDS } from './agent-script';
import { Desk, partIds, promote, startParts, startVersions, V1, V2 } from './upgrade-lab';
import { upgradeScript } from './upgrade-script';
import { buildsOf, moveOf, runsOf } from './version-audit';
import { proven, verify, type Scenario } from './verify';

/** Agents started on each version (at the smallest size, one). */
export const ROLLBACK_AGENTS = 4;

/** Runs the scenario. */
export const rollback: Scenario = async (lab, prng) => {
  const started = performance.now();
  lab.llm.respondWith(upgradeScript(prng.fork()));
  const { toothless } = lab.options;
  const failures: string[] = [];
  await startVersions(lab);
  const each = lab.size(ROLLBACK_AGENTS, 1);
  const all = partIds(lab, 'check', 2 * each);
  const onV1 = all.slice(0, each);
  const onV2 = all.slice(each);
  const desk = new Desk(lab.agents, () => all, ['check']);
  if (toothless) {
    await promote(lab, V2);
    await promote(lab, V1);
  }
  await startParts(lab.agents, onV1);
  await desk.caught(onV1).catch((err: unknown) => failures.push(`agents not at their plan check: ${String(err)}`));
  if (!toothless) await promote(lab, V2);
  await startParts(lab.agents, onV2);
  await desk.caught(onV2).catch((err: unknown) => failures.push(`agents not at their plan check: ${String(err)}`));
  if (!toothless) await promote(lab, V1); // the rollback
  desk.release();
  const result = await verify(lab, all, { started, failures });
  await desk.stop();

  let movedBack = 0;
  let stayed = 0;
  for (const id of all) {
    const runs = await runsOf(lab.client, id);
    const steps = (await Promise.all(STEP_IDS.map((s) => runsOf(lab.client, stepWorkflowId(id, s))))).flat();
    for (const run of [...runs, ...steps]) {
      for (const failed of run.failedTasks) result.failures.push(`${id}: workflow task failed: ${failed}`);
    }
    const stepBuilds = buildsOf(steps);
    if (stepBuilds.length !== 1 || stepBuilds[0] !== V1.buildId) {
      result.failures.push(`${id}: steps ran on ${stepBuilds.join(', ') || 'nothing'}, expected chaos-v1 only`);
    }
    const last = runs[runs.length - 1];
    if (!last || last.builds.some((b) => b !== V1.buildId))
      result.failures.push(`${id}: its last run was not on chaos-v1`);
    if (onV1.includes(id)) {
      if (buildsOf(runs).every((b) => b === V1.buildId)) stayed++;
      else result.failures.push(`${id} started on chaos-v1 but ran on ${buildsOf(runs).join(', ')}`);
    } else {
      const move = moveOf(runs, V2.buildId, V1.buildId);
      if ('problem' in move) {
        if (!toothless) result.failures.push(`${id} did not move back to chaos-v1 safely: ${move.problem}`);
      } else movedBack++;
    }
  }
  result.notes.push(
    `${onV1.length} agents waited on chaos-v1 and ${onV2.length} on chaos-v2 when chaos-v1 was made current again; ` +
      `${stayed} stayed on chaos-v1, ${movedBack} moved back before their first step`,
  );
  return proven(result, [
    { what: 'agents of chaos-v2 that moved back to chaos-v1', found: movedBack, needed: onV2.length },
    { what: 'agents of chaos-v1 that never left it', found: stayed, needed: onV1.length },
  ]);
};
