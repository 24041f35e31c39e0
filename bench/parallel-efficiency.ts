/**
 * Benchmark 2, parallel efficiency: a 30-step unbalanced DAG (width up to 8) at 300 ms per
 * model call with maxParallelSteps 8, against the ideal (critical path), an analytic
 * level-by-level schedule, and level-by-level measured: the same steps run by Cairn with each
 * level depending on the whole level above, side by side with the DAG on the same worker —
 * the comparison that isolates the scheduling policy from Temporal's per-step overhead.
 */
import type { PlanStep } from '../workflows/model/plan/plan-types';
import { lookupTool } from '../testkit/lookup-tool';
import type { ReplyFunction } from '../testkit/fake-llm';
import { agentScript, fixed, median, ms, planOf, planStep, since, withCairn, type BenchEnv } from './common';
import type { Report } from './report';

const LATENCY_MS = 300;
const CAP = 8;
const RUNS = 3;
const LEVEL_WIDTHS = [2, 8, 6, 8, 4, 2];
const NAME = '2. Parallel efficiency';

interface DagStep {
  step: PlanStep;
  level: number;
  /** Model calls (ReAct rounds) the step makes. */
  rounds: number;
}

/** The DAG: each step depends on one or two steps of the level above; 1 to 3 rounds each. */
export function unbalancedDag(): DagStep[] {
  const out: DagStep[] = [];
  let previous: string[] = [];
  let n = 0;
  LEVEL_WIDTHS.forEach((width, level) => {
    const ids: string[] = [];
    for (let j = 0; j < width; j++) {
      n++;
      const id = `p${n}`;
      const deps = previous.length === 0 ? [] : [previous[j % previous.length] ?? ''];
      if (previous.length > 1 && j % 3 === 1) deps.push(previous[(j + 1) % previous.length] ?? '');
      out.push({ step: planStep(id, [...new Set(deps)]), level, rounds: 1 + ((n * 7 + level) % 3) });
      ids.push(id);
    }
    previous = ids;
  });
  return out;
}

/** The same steps, each level depending on every step of the level above: a level-by-level plan. */
function levelledSteps(dag: DagStep[]): PlanStep[] {
  return dag.map(({ step, level }) => ({
    ...step,
    depends_on: dag.filter((s) => s.level === level - 1).map((s) => s.step.id),
  }));
}

const LEVELLED_TASK = 'the same plan, level by level';

/** Rounds along the heaviest dependency path. */
function criticalPath(dag: DagStep[]): number {
  const finish = new Map<string, number>();
  for (const { step, rounds } of dag) {
    const ready = Math.max(0, ...step.depends_on.map((d) => finish.get(d) ?? 0));
    finish.set(step.id, ready + rounds);
  }
  return Math.max(...finish.values());
}

/** Rounds when each level waits for the one before, in batches of `cap` (heaviest first). */
function levelByLevel(dag: DagStep[], cap: number): number {
  let total = 0;
  for (let level = 0; level < LEVEL_WIDTHS.length; level++) {
    const rounds = dag
      .filter((s) => s.level === level)
      .map((s) => s.rounds)
      .sort((a, b) => b - a);
    for (let i = 0; i < rounds.length; i += cap) total += rounds[i] ?? 0;
  }
  return total;
}

export async function parallelEfficiency(env: BenchEnv, report: Report): Promise<void> {
  const dag = unbalancedDag();
  const roundsOf = new Map(dag.map((s) => [s.step.id, s.rounds]));
  const plan = planOf(dag.map((s) => s.step));
  const dagScript = agentScript(plan, (id) => roundsOf.get(id) ?? 1);
  const levelledScript = agentScript(planOf(levelledSteps(dag)), (id) => roundsOf.get(id) ?? 1);
  // One fake for both plans: the planner's task says which one it is asked for.
  const respond: ReplyFunction = (request) =>
    (JSON.stringify(request.body.messages).includes(LEVELLED_TASK) ? levelledScript : dagScript)(request);
  const ideal = (1 + criticalPath(dag) + 1) * LATENCY_MS;
  const levels = (1 + levelByLevel(dag, CAP) + 1) * LATENCY_MS;
  const lookup = lookupTool();
  await withCairn(env, { latencyMs: LATENCY_MS, respond, tools: [lookup.tool] }, async ({ agents, lean }) => {
    const runLean = async () => {
      const start = performance.now();
      await lean.result(await lean.start({ task: 'a wide unbalanced plan', maxParallelSteps: CAP }));
      return since(start);
    };
    const runOnce = async (task: string) => {
      const start = performance.now();
      const id = await agents.start({ task, limits: { maxParallelSteps: CAP } });
      const result = await agents.result(id);
      if (result.status !== 'completed') throw new Error(`agent ended ${result.status}`);
      return since(start);
    };
    await runOnce('a wide unbalanced plan'); // warm-up (worker caches, sockets), as in benchmark 1
    await runLean();
    const runs: number[] = [];
    const levelledRuns: number[] = [];
    const leanRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(await runOnce('a wide unbalanced plan'));
      levelledRuns.push(await runOnce(LEVELLED_TASK));
      leanRuns.push(await runLean());
    }
    const cairn = median(runs);
    const levelled = median(levelledRuns);
    const baseline = median(leanRuns);
    report.add({ benchmark: NAME, figure: 'Cairn makespan (30 steps, cap 8)', measured: ms(cairn) });
    report.add({
      benchmark: NAME,
      figure: 'lean Temporal baseline makespan (same DAG, cap 8)',
      measured: ms(baseline),
    });
    report.add({ benchmark: NAME, figure: 'ideal: (plan + critical path + summary) × 300 ms', measured: ms(ideal) });
    report.add({ benchmark: NAME, figure: 'level-by-level schedule (analytic, no overhead)', measured: ms(levels) });
    report.add({ benchmark: NAME, figure: 'level-by-level, measured (Cairn, levelled plan)', measured: ms(levelled) });
    report.add({
      benchmark: NAME,
      figure: 'ratio Cairn / ideal',
      measured: fixed(cairn / ideal),
      target: '≤ 1.10',
      met: cairn / ideal <= 1.1,
    });
    report.add({ benchmark: NAME, figure: 'ratio lean baseline / ideal', measured: fixed(baseline / ideal) });
    report.add({ benchmark: NAME, figure: 'ratio Cairn / lean baseline', measured: fixed(cairn / baseline) });
    report.add({ benchmark: NAME, figure: 'ratio Cairn / level-by-level (analytic)', measured: fixed(cairn / levels) });
    report.add({
      benchmark: NAME,
      figure: 'ratio Cairn / level-by-level (measured)',
      measured: fixed(cairn / levelled),
      target: '< 1.00',
      met: cairn < levelled,
    });
    const totalRounds = dag.reduce((sum, s) => sum + s.rounds, 0);
    report.note(
      `${NAME}: levels of width ${LEVEL_WIDTHS.join(', ')} (30 steps); each step depends on 1–2 steps of the level ` +
        `above and makes 1–3 model calls (${totalRounds} step calls in all; between calls a step runs one ` +
        `\`lookup\` tool activity, which the ideal does not count). Ideal = (1 plan call + ${criticalPath(dag)} ` +
        `calls on the heaviest path + 1 summary call) × ${LATENCY_MS} ms, ignoring the cap of ${CAP}. ` +
        `Level-by-level = plan + Σ over levels of the heaviest step per batch of ${CAP} + summary ` +
        `(${levelByLevel(dag, CAP)} step calls deep). Measured level-by-level: the same steps and calls, each level ` +
        `depending on every step of the level above, run alternately with the DAG on the same worker. Medians of ` +
        `${RUNS} runs after one warm-up: DAG ${runs.map(ms).join(', ')}; levelled ${levelledRuns.map(ms).join(', ')}; ` +
        `lean baseline ${leanRuns.map(ms).join(', ')} (its steps call the same lookup between rounds, as activities).`,
    );
  });
}
