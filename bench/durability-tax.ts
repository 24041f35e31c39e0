/**
 * Benchmark 1, the durability tax: one 10-step sequential plan, run by Cairn (plan + 10 steps +
 * summary = 12 model calls through Temporal), by the lean Temporal baseline (bench/lean: one
 * workflow, the same 12 calls as activities on its own queue) and by a plain in-process loop
 * making the same 12 calls with the real `openai` client against the same fake; at 200 ms per
 * call (the stress figure) and at 1.5 s (a hosted model). Every run of Cairn and the baseline
 * also yields a latency budget from its histories (bench/latency-budget.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { Client } from '@temporalio/client';
import type { ScriptedLlm } from '../testkit/fake-llm';
import { agentHistories } from './agent-histories';
import { budgetTable, meanBudget } from './budget-table';
import { agentScript, chain, fixed, median, ms, planOf, since, withCairn, type BenchEnv } from './common';
import { latencyBudget, type Budget, type BudgetInput } from './latency-budget';
import type { Report } from './report';

const STEPS = 10;
const CALLS = STEPS + 2;
const NAME = '1. Durability tax';

/** The two latencies: the stress figure and a hosted model's, with their targets. */
const SETTINGS = [
  { latencyMs: 200, runs: 3, taxTarget: 1.1, leanTarget: 1.05 },
  { latencyMs: 1500, runs: 2, taxTarget: 1.03, leanTarget: undefined },
] as const;

/** The same 12 calls, one after another, with no Temporal in between. */
export async function plainLoop(llm: ScriptedLlm): Promise<number> {
  const openai = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'bench', maxRetries: 0 });
  const call = (purpose: string, stepId?: string) =>
    openai.chat.completions.create(
      { model: 'scripted-model', messages: [{ role: 'user', content: `${purpose} ${stepId ?? ''}` }] },
      { headers: { 'X-Cairn-Purpose': purpose, ...(stepId ? { 'X-Cairn-Step': stepId } : {}) } },
    );
  const start = performance.now();
  await call('plan');
  for (let i = 1; i <= STEPS; i++) await call('step', `s${i}`);
  await call('summary');
  return since(start);
}

interface Timed {
  ms: number;
  budget: Budget;
  input: BudgetInput;
}

/** Runs one agent (start → result) and computes its budget from its histories. */
async function timedRun(client: Client, modelActivity: string, run: () => Promise<string>): Promise<Timed> {
  const clientStart = Date.now();
  const start = performance.now();
  const id = await run();
  const elapsed = since(start);
  const clientDone = Date.now();
  const histories = await agentHistories(client, id);
  const input = { histories, rootWorkflowId: id, clientStart, clientDone, modelActivities: [modelActivity] };
  return { ms: elapsed, budget: latencyBudget(input), input };
}

export async function durabilityTax(env: BenchEnv, report: Report): Promise<void> {
  const plan = planOf(chain(STEPS));
  // BENCH_LATENCIES=200 measures only the stress figure (quick before/after comparisons).
  const only = process.env['BENCH_LATENCIES']?.split(',').map(Number);
  for (const { latencyMs, runs, taxTarget, leanTarget } of SETTINGS.filter(
    (s) => !only || only.includes(s.latencyMs),
  )) {
    const at = `${latencyMs} ms/call`;
    await withCairn(env, { latencyMs, respond: agentScript(plan) }, async ({ agents, client, llm, lean }) => {
      const runCairn = () =>
        timedRun(client, 'callLlm', async () => {
          const id = await agents.start({ task: 'ten sequential steps', limits: { maxParallelSteps: 1 } });
          const result = await agents.result(id);
          if (result.status !== 'completed') throw new Error(`agent ended ${result.status}`);
          return id;
        });
      const runLean = () =>
        timedRun(client, 'callModel', async () => {
          const id = await lean.start({ task: 'ten sequential steps', maxParallelSteps: 1 });
          await lean.result(id);
          return id;
        });
      // One warm-up of each (worker caches, sockets), then the median of `runs`, interleaved.
      await runCairn();
      await runLean();
      await plainLoop(llm);
      const cairn: Timed[] = [];
      const baseline: Timed[] = [];
      const plain: number[] = [];
      for (let i = 0; i < runs; i++) {
        cairn.push(await runCairn());
        baseline.push(await runLean());
        plain.push(await plainLoop(llm));
      }
      // BENCH_RECORD_BUDGET=<dir>: keep the first runs' budget inputs (unit-test data, test/unit/data).
      const record = process.env['BENCH_RECORD_BUDGET'];
      if (record) {
        writeFileSync(join(record, `budget-cairn-${latencyMs}ms.json`), JSON.stringify(cairn[0]?.input));
        writeFileSync(join(record, `budget-lean-${latencyMs}ms.json`), JSON.stringify(baseline[0]?.input));
      }
      const c = median(cairn.map((t) => t.ms));
      const l = median(baseline.map((t) => t.ms));
      const p = median(plain);
      const add = (figure: string, measured: string, target?: { text: string; met: boolean }) =>
        report.add(
          target
            ? { benchmark: NAME, figure: `${at}: ${figure}`, measured, target: target.text, met: target.met }
            : { benchmark: NAME, figure: `${at}: ${figure}`, measured },
        );
      add('Cairn makespan (plan + 10 steps + summary)', ms(c));
      add('lean Temporal baseline makespan (same 12 calls)', ms(l));
      add('plain openai loop makespan (same 12 calls)', ms(p));
      add('ratio Cairn / plain (durability tax)', fixed(c / p), {
        text: `≤ ${taxTarget.toFixed(2)}`,
        met: c / p <= taxTarget,
      });
      add('ratio lean baseline / plain', fixed(l / p));
      add(
        'ratio Cairn / lean baseline',
        fixed(c / l),
        leanTarget !== undefined ? { text: `≤ ${leanTarget.toFixed(2)}`, met: c / l <= leanTarget } : undefined,
      );
      add(
        'overhead per model call: Cairn / lean baseline',
        `${((c - p) / CALLS).toFixed(0)} ms / ${((l - p) / CALLS).toFixed(0)} ms`,
      );
      const table = budgetTable(
        meanBudget(cairn.map((t) => t.budget)),
        meanBudget(baseline.map((t) => t.budget)),
        latencyMs,
      );
      add(
        'latency budget accounts for (Cairn / lean) of the overhead',
        `${(table.accounted.cairn * 100).toFixed(1)} % / ${(table.accounted.lean * 100).toFixed(1)} %`,
        {
          text: '≥ 90 %',
          met: table.accounted.cairn >= 0.9,
        },
      );
      report.table(`Latency budget at ${at} (10 sequential steps, mean of ${runs} runs)`, table.header, table.rows);
      report.note(
        `${NAME} at ${at}: 12 calls (${ms(CALLS * latencyMs)} of pure latency); median of ${runs} runs after one ` +
          `warm-up of each, Cairn, lean baseline and plain loop interleaved. Cairn: ${cairn.map((t) => ms(t.ms)).join(', ')}; ` +
          `lean: ${baseline.map((t) => ms(t.ms)).join(', ')}; plain: ${plain.map(ms).join(', ')}.`,
      );
    });
  }
}
