/**
 * Benchmark 5, time to plan visible: from `start` until the state query shows the open
 * plan.check interaction (mode.confirmPlan true) at 0 ms model latency; median of 10 runs.
 */
import { agentScript, median, ms, planOf, planStep, since, withCairn, type BenchEnv } from './common';
import type { Report } from './report';

const RUNS = 10;
const NAME = '5. Plan visible';

export async function planVisible(env: BenchEnv, report: Report): Promise<void> {
  const plan = planOf([planStep('s1'), planStep('s2', ['s1'])]);
  await withCairn(env, { latencyMs: 0, respond: agentScript(plan) }, async ({ agents }) => {
    const once = async () => {
      const start = performance.now();
      const id = await agents.start({ task: 'show me the plan first', mode: { confirmPlan: true } });
      for (;;) {
        const state = await agents.state(id);
        if (state.interactions.some((i) => i.kind === 'plan.check' && i.status === 'open')) break;
        if (since(start) > 30_000) throw new Error('no plan check within 30 s');
      }
      const elapsed = since(start);
      await agents.cancel(id);
      return elapsed;
    };
    await once(); // warm-up, not counted
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await once());
    const m = median(times);
    report.add({
      benchmark: NAME,
      figure: `start → open plan.check in state (median of ${RUNS})`,
      measured: ms(m),
      target: '≤ 250 ms',
      met: m <= 250,
    });
    report.note(
      `${NAME}: polled with the state query back to back; runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms ` +
        `(one warm-up not counted).`,
    );
  });
}
