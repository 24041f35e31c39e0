/**
 * Benchmark 3, concurrency: N agents of 5 sequential steps at 1 s per model call, started at
 * once against one worker and the dev server. Reports completions, failures, step throughput
 * and agent time over the ideal (7 calls × 1 s).
 */
import { agentScript, chain, fixed, ms, planOf, quantile, since, withCairn, type BenchEnv } from './common';
import type { Report } from './report';

const STEPS = 5;
const LATENCY_MS = 1000;
const IDEAL_MS = (1 + STEPS + 1) * LATENCY_MS;
/** Agents not done by then count as failures (and are terminated): N = 1000 needs about 4 minutes here. */
const DEADLINE_MS = 420_000;
const NAME = '3. Concurrency';

interface Outcome {
  n: number;
  completed: number;
  failed: number;
  makespanMs: number;
  stepsPerSecond: number;
  p50: number;
  p95: number;
  errors: string[];
}

async function runConcurrent(env: BenchEnv, n: number): Promise<Outcome> {
  const plan = planOf(chain(STEPS));
  // One slot per agent: each has one call in flight at a time, so the cap does not queue them.
  const llmConcurrency = Math.max(200, n);
  return withCairn(env, { latencyMs: LATENCY_MS, respond: agentScript(plan), llmConcurrency }, async ({ agents }) => {
    const start = performance.now();
    const deadline = start + DEADLINE_MS;
    const errors: string[] = [];
    const times = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const began = performance.now();
        let id: string | undefined;
        try {
          id = await agents.start({ task: `concurrent agent ${i}` });
          const result = await Promise.race([
            agents.result(id),
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error('not done by the deadline')), deadline - performance.now()).unref(),
            ),
          ]);
          if (result.status !== 'completed') throw new Error(`ended ${result.status}`);
          return since(began);
        } catch (err) {
          errors.push(err instanceof Error ? err.message : String(err));
          if (id)
            await agents.temporal.workflow
              .getHandle(id)
              .terminate('benchmark deadline')
              .catch(() => undefined);
          return undefined;
        }
      }),
    );
    const makespanMs = since(start);
    const done = times.filter((t): t is number => t !== undefined);
    return {
      n,
      completed: done.length,
      failed: n - done.length,
      makespanMs,
      stepsPerSecond: (done.length * STEPS) / (makespanMs / 1000),
      p50: quantile(done, 0.5) / IDEAL_MS,
      p95: quantile(done, 0.95) / IDEAL_MS,
      errors: [...new Set(errors)].slice(0, 3),
    };
  });
}

/** N = 1000 runs only when N = 300 suggests it ends within this (the whole bench must stay under 15 min). */
const N1000_BUDGET_MS = 8 * 60_000;

export async function concurrency(env: BenchEnv, report: Report): Promise<void> {
  let makespan300 = Number.POSITIVE_INFINITY;
  for (const n of [100, 300, 1000]) {
    const projected = (makespan300 * 1000) / 300;
    if (n === 1000 && projected > N1000_BUDGET_MS) {
      report.note(
        `${NAME}: N = 1000 was skipped: the N = 300 run took ${ms(makespan300)}, so N = 1000 would take about ` +
          `${ms(projected)} (over the ${ms(N1000_BUDGET_MS)} budget).`,
      );
      break;
    }
    const o = await runConcurrent(env, n);
    if (n === 300) makespan300 = o.makespanMs;
    const label = `N = ${n}`;
    report.add({ benchmark: NAME, figure: `${label}: makespan`, measured: ms(o.makespanMs) });
    report.add({
      benchmark: NAME,
      figure: `${label}: completed / failed`,
      measured: `${o.completed} / ${o.failed}`,
      target: '0 failures',
      met: o.failed === 0,
    });
    report.add({ benchmark: NAME, figure: `${label}: steps per second`, measured: fixed(o.stepsPerSecond, 1) });
    report.add({
      benchmark: NAME,
      figure: `${label}: p50 / p95 agent time ÷ ideal (7 s)`,
      measured: `${fixed(o.p50)} / ${fixed(o.p95)}`,
    });
    if (o.errors.length > 0) report.note(`${NAME} ${label}: failures such as: ${o.errors.join('; ')}.`);
  }
  report.note(
    `${NAME}: each agent has 5 sequential steps; ideal agent time = (plan + 5 steps + summary) × 1 s = 7 s. ` +
      `All agents are started at once from one client; one worker (one process, default Temporal worker ` +
      `settings) serves them, with CAIRN_LLM_CONCURRENCY = max(200, N) so the LLM slot cap does not queue calls. ` +
      `Steps per second = completed steps ÷ makespan (first start to last completion).`,
  );
}
