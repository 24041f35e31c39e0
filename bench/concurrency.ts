/**
 * Benchmark 3, concurrency: N agents of 5 sequential steps at 1 s per model call, started at
 * once against one worker and the dev server, first Cairn's and then the lean Temporal
 * baseline's (bench/lean) on the same server and fake. Reports completions, failures, step
 * throughput, agent time over the ideal (7 calls × 1 s) and the CPU each step cost: this
 * process (client and in-process workers) and the dev server, from /proc over the run. Cairn runs
 * twice: started untraced (tracing off, the default) and by a tracing client, whose runs pay for
 * Temporal's OpenTelemetry workflow interceptors — what every run paid before runs were traced
 * only on a trace header.
 */
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@temporalio/client';
import { AgentClient } from '../client/agents/agent-client';
import { cairnDataConverter } from '../temporal/payloads/data-converter';
import { createTracing } from '../worker/telemetry/tracing';
import { agentScript, chain, fixed, ms, planOf, quantile, since, withCairn, type BenchEnv } from './common';
import { clockTicksPerSecond, cpuSeconds, sampleCpu } from './proc-cpu';
import type { Report } from './report';

const STEPS = 5;
const LATENCY_MS = 1000;
const IDEAL_MS = (1 + STEPS + 1) * LATENCY_MS;
/** Agents not done by then count as failures (and are terminated): N = 1000 needs about 4 minutes here. */
const DEADLINE_MS = 420_000;
const NAME = '3. Concurrency';

interface Outcome {
  completed: number;
  failed: number;
  makespanMs: number;
  stepsPerSecond: number;
  p50: number;
  p95: number;
  /** CPU seconds per completed step: this process (client and workers), the dev server. */
  cpuPerStep: { bench: number; server: number };
  errors: string[];
}

/** How to run one agent of the shape to completion, and stop it if it overruns. */
interface Runner {
  start(i: number): Promise<string>;
  /** Resolves when the agent completed, rejects when it ended otherwise. */
  finish(id: string): Promise<void>;
  terminate(id: string): Promise<void>;
}

async function runConcurrent(env: BenchEnv, n: number, runner: Runner): Promise<Outcome> {
  const ticks = clockTicksPerSecond();
  const cpuBefore = { bench: sampleCpu(process.pid), server: sampleCpu(env.serverPid) };
  const start = performance.now();
  const deadline = start + DEADLINE_MS;
  const errors: string[] = [];
  const times = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const began = performance.now();
      let id: string | undefined;
      try {
        id = await runner.start(i);
        await Promise.race([
          runner.finish(id),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('not done by the deadline')), deadline - performance.now()).unref(),
          ),
        ]);
        return since(began);
      } catch (err) {
        errors.push(err instanceof Error ? err.message : String(err));
        if (id) await runner.terminate(id).catch(() => undefined);
        return undefined;
      }
    }),
  );
  const makespanMs = since(start);
  const cpuAfter = { bench: sampleCpu(process.pid), server: sampleCpu(env.serverPid) };
  const done = times.filter((t): t is number => t !== undefined);
  const steps = Math.max(1, done.length * STEPS);
  return {
    completed: done.length,
    failed: n - done.length,
    makespanMs,
    stepsPerSecond: (done.length * STEPS) / (makespanMs / 1000),
    p50: quantile(done, 0.5) / IDEAL_MS,
    p95: quantile(done, 0.95) / IDEAL_MS,
    cpuPerStep: {
      bench: cpuSeconds(cpuBefore.bench, cpuAfter.bench, ticks) / steps,
      server: cpuSeconds(cpuBefore.server, cpuAfter.server, ticks) / steps,
    },
    errors: [...new Set(errors)].slice(0, 3),
  };
}

/** Runs N of Cairn's agents started through `agents`. */
function cairnRunner(agents: AgentClient): Runner {
  return {
    start: (i) => agents.start({ task: `concurrent agent ${i}` }),
    finish: async (id) => {
      const result = await agents.result(id);
      if (result.status !== 'completed') throw new Error(`ended ${result.status}`);
    },
    terminate: (id) =>
      agents.temporal.workflow
        .getHandle(id)
        .terminate('benchmark deadline')
        .then(() => undefined),
  };
}

/**
 * Cairn's agents (started untraced, as with tracing off), the same started by a tracing client
 * (their runs go through Temporal's OpenTelemetry workflow interceptors; the worker drops the
 * spans), then the baseline's, at N; all on fresh workers against one fake.
 */
async function measure(env: BenchEnv, n: number): Promise<{ cairn: Outcome; traced: Outcome; lean: Outcome }> {
  const plan = planOf(chain(STEPS));
  // One slot per agent: each has one call in flight at a time, so the cap does not queue them.
  const llmConcurrency = Math.max(200, n);
  return withCairn(
    env,
    { latencyMs: LATENCY_MS, respond: agentScript(plan), llmConcurrency },
    async ({ agents, lean, config }) => {
      const cairn = await runConcurrent(env, n, cairnRunner(agents));
      const tracing = createTracing(new NoopSpanProcessor());
      const tracingClient = new Client({
        connection: agents.temporal.connection,
        interceptors: { workflow: tracing.clientInterceptors },
        dataConverter: cairnDataConverter(config.payloads),
      });
      const traced = await runConcurrent(env, n, cairnRunner(new AgentClient(tracingClient, config.taskQueue)));
      await tracing.shutdown();
      const baseline = await runConcurrent(env, n, {
        start: (i) => lean.start({ task: `concurrent agent ${i}`, maxParallelSteps: 1 }),
        finish: (id) => lean.result(id).then(() => undefined),
        terminate: (id) =>
          agents.temporal.workflow
            .getHandle(id)
            .terminate('benchmark deadline')
            .then(() => undefined),
      });
      return { cairn, traced, lean: baseline };
    },
  );
}

/** N = 1000 runs only when N = 300 suggests it ends within this (the whole bench must stay under 15 min). */
const N1000_BUDGET_MS = 8 * 60_000;

/** The Ns to run: 100, 300, 1000 unless BENCH_CONCURRENCY says (quick before/after comparisons). */
function sizes(): number[] {
  const told = process.env['BENCH_CONCURRENCY']
    ?.split(',')
    .map(Number)
    .filter((n) => n > 0);
  return told && told.length > 0 ? told : [100, 300, 1000];
}

export async function concurrency(env: BenchEnv, report: Report): Promise<void> {
  if (process.env['BENCH_CONCURRENCY'])
    report.note(
      `${NAME}: run with BENCH_CONCURRENCY=${process.env['BENCH_CONCURRENCY']} instead of N = 100, 300, 1000.`,
    );
  let makespan300 = Number.POSITIVE_INFINITY;
  for (const n of sizes()) {
    const projected = (makespan300 * 1000) / 300;
    if (n === 1000 && projected > N1000_BUDGET_MS) {
      report.note(
        `${NAME}: N = 1000 was skipped: the N = 300 run took ${ms(makespan300)}, so N = 1000 would take about ` +
          `${ms(projected)} (over the ${ms(N1000_BUDGET_MS)} budget).`,
      );
      break;
    }
    const { cairn: o, traced, lean } = await measure(env, n);
    if (n === 300) makespan300 = o.makespanMs;
    const label = `N = ${n}`;
    const add = (figure: string, measured: string, target?: { text: string; met: boolean }) =>
      report.add(
        target
          ? { benchmark: NAME, figure: `${label}: ${figure}`, measured, target: target.text, met: target.met }
          : { benchmark: NAME, figure: `${label}: ${figure}`, measured },
      );
    add('makespan: Cairn / lean baseline', `${ms(o.makespanMs)} / ${ms(lean.makespanMs)}`);
    add('Cairn completed / failed', `${o.completed} / ${o.failed}`, { text: '0 failures', met: o.failed === 0 });
    add('lean baseline completed / failed', `${lean.completed} / ${lean.failed}`);
    add('steps per second: Cairn / lean baseline', `${fixed(o.stepsPerSecond, 1)} / ${fixed(lean.stepsPerSecond, 1)}`);
    add(
      'Cairn p50 / p95 agent time ÷ ideal (7 s)',
      `${fixed(o.p50)} / ${fixed(o.p95)}`,
      n === 1000 ? { text: 'p50 ≤ 10', met: o.p50 <= 10 } : undefined,
    );
    add('lean baseline p50 / p95 agent time ÷ ideal (7 s)', `${fixed(lean.p50)} / ${fixed(lean.p95)}`);
    const cpu = (x: Outcome) => x.cpuPerStep.bench + x.cpuPerStep.server;
    add(
      'CPU ms per step, Cairn: worker process + dev server',
      `${(cpu(o) * 1000).toFixed(1)} = ${(o.cpuPerStep.bench * 1000).toFixed(1)} + ${(o.cpuPerStep.server * 1000).toFixed(1)}`,
    );
    add(
      'CPU ms per step, lean baseline: worker process + dev server',
      `${(cpu(lean) * 1000).toFixed(1)} = ${(lean.cpuPerStep.bench * 1000).toFixed(1)} + ${(lean.cpuPerStep.server * 1000).toFixed(1)}`,
    );
    add(
      'CPU ms per step, Cairn started by a tracing client: worker process + dev server',
      `${(cpu(traced) * 1000).toFixed(1)} = ${(traced.cpuPerStep.bench * 1000).toFixed(1)} + ${(traced.cpuPerStep.server * 1000).toFixed(1)}`,
    );
    add('CPU per step, ratio traced start / untraced start', fixed(cpu(traced) / cpu(o)));
    if (traced.failed > 0) report.note(`${NAME} ${label}: traced-start failures such as: ${traced.errors.join('; ')}.`);
    add('CPU per step, ratio Cairn / lean baseline', fixed(cpu(o) / cpu(lean)), {
      text: '≤ 1.5',
      met: cpu(o) / cpu(lean) <= 1.5,
    });
    if (o.errors.length > 0) report.note(`${NAME} ${label}: Cairn failures such as: ${o.errors.join('; ')}.`);
    if (lean.errors.length > 0) report.note(`${NAME} ${label}: baseline failures such as: ${lean.errors.join('; ')}.`);
  }
  report.note(
    `${NAME}: each agent has 5 sequential steps; ideal agent time = (plan + 5 steps + summary) × 1 s = 7 s. ` +
      `All agents are started at once from one client; one worker process serves them (Cairn's two Temporal ` +
      `workers, then the lean baseline's one), with CAIRN_LLM_CONCURRENCY = max(200, N) so the LLM slot cap does ` +
      `not queue calls. Steps per second = completed steps ÷ makespan (first start to last completion). CPU per ` +
      `step = (user + system CPU of the benchmark process, which holds the client, the fake and the workers, plus ` +
      `the dev server's) over the run ÷ completed steps, from /proc/<pid>/stat.`,
  );
}
