/**
 * Benchmark 1, the durability tax: one 10-step sequential plan at 200 ms per model call, run
 * by Cairn (plan + 10 steps + summary = 12 calls through Temporal) and by a plain in-process
 * loop making the same 12 calls with the real `openai` client against the same fake.
 */
import OpenAI from 'openai';
import type { ScriptedLlm } from '../testkit/fake-llm';
import { agentScript, chain, fixed, median, ms, planOf, since, withCairn, type BenchEnv } from './common';
import type { Report } from './report';

const STEPS = 10;
const LATENCY_MS = 200;
const RUNS = 3;
const NAME = '1. Durability tax';

/** The same 12 calls, one after another, with no Temporal in between. */
async function plainLoop(llm: ScriptedLlm): Promise<number> {
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

export async function durabilityTax(env: BenchEnv, report: Report): Promise<void> {
  const plan = planOf(chain(STEPS));
  await withCairn(env, { latencyMs: LATENCY_MS, respond: agentScript(plan) }, async ({ agents, llm }) => {
    const runCairn = async () => {
      const start = performance.now();
      const id = await agents.start({ task: 'ten sequential steps', limits: { maxParallelSteps: 1 } });
      const result = await agents.result(id);
      if (result.status !== 'completed') throw new Error(`agent ended ${result.status}`);
      return since(start);
    };
    // One warm-up of each (worker caches, sockets), then the median of RUNS.
    await runCairn();
    await plainLoop(llm);
    const cairn: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      cairn.push(await runCairn());
      plain.push(await plainLoop(llm));
    }
    const ratio = median(cairn) / median(plain);
    report.add({ benchmark: NAME, figure: 'Cairn makespan (plan + 10 steps + summary)', measured: ms(median(cairn)) });
    report.add({ benchmark: NAME, figure: 'plain openai loop makespan (same 12 calls)', measured: ms(median(plain)) });
    report.add({
      benchmark: NAME,
      figure: 'ratio Cairn / plain',
      measured: fixed(ratio),
      target: '≤ 1.10',
      met: ratio <= 1.1,
    });
    report.note(
      `${NAME}: 12 calls at ${LATENCY_MS} ms each (${12 * LATENCY_MS} ms of pure latency); median of ${RUNS} runs ` +
        `after one warm-up of each. Cairn runs: ${cairn.map(ms).join(', ')}; plain: ${plain.map(ms).join(', ')}.`,
    );
  });
}
