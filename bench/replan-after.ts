/**
 * Benchmark 7, what `mode.replanAfter: 'each'` costs: the same 4-step chain run by one agent with
 * the default (`listed`: the plan lists no replan, so none happens) and one with `each` (the
 * planner revises the rest after every completed step; here it keeps it as it was). Model calls
 * and tokens per agent, by purpose, are counted from the fake's request log (each request's
 * `usage.total_tokens` as the fake answered it), side by side. `npm run bench -- 7` runs only it.
 */
import type { AgentInput } from '../workflows/model/agent/agent-input';
import { reply, type RecordedRequest, type ReplyFunction } from '../testkit/fake-llm';
import { chain, fixed, planOf, withCairn, type BenchEnv } from './common';
import type { Report } from './report';

const NAME = '7. Replan after';
const STEPS = chain(4);

/**
 * Plans the chain, finishes each step in one round, and answers a replan with the steps not yet
 * run, unchanged. `started` is the set of step ids a step request named (reset per agent).
 */
function script(started: Set<string>): ReplyFunction {
  return (request) => {
    switch (request.headers['x-cairn-purpose']) {
      case 'plan':
        return reply.json(planOf(STEPS));
      case 'replan':
        return reply.json(planOf(STEPS.filter((s) => !started.has(s.id))));
      case 'step':
        started.add(request.headers['x-cairn-step'] ?? '');
        return reply.toolCall('finish_step', { result: `done ${request.headers['x-cairn-step'] ?? ''}` });
      case 'summary':
        return reply.text('All steps are done.');
      default:
        return undefined;
    }
  };
}

/** Calls and tokens of `requests`, in all and by purpose. */
function tally(requests: RecordedRequest[]): { calls: number; tokens: number; byPurpose: Map<string, number> } {
  const byPurpose = new Map<string, number>();
  let tokens = 0;
  for (const r of requests) {
    const purpose = r.headers['x-cairn-purpose'] ?? 'other';
    byPurpose.set(purpose, (byPurpose.get(purpose) ?? 0) + 1);
    tokens += r.reportedTokens ?? 0;
  }
  return { calls: requests.length, tokens, byPurpose };
}

export async function replanAfter(env: BenchEnv, report: Report): Promise<void> {
  const started = new Set<string>();
  await withCairn(env, { latencyMs: 0, respond: script(started) }, async ({ agents, llm }) => {
    const variants: [string, AgentInput['mode']][] = [
      ['listed (default)', {}],
      ['each', { replanAfter: 'each' }],
    ];
    const results: { label: string; calls: number; tokens: number; byPurpose: Map<string, number> }[] = [];
    for (const [label, mode] of variants) {
      started.clear();
      const from = llm.requests.length;
      const id = await agents.start({ task: 'four steps in a row', mode });
      const result = await agents.result(id);
      if (result.status !== 'completed') throw new Error(`the ${label} agent ended ${result.status}`);
      results.push({ label, ...tally(llm.requests.slice(from)) });
    }
    const [listed, each] = results;
    if (!listed || !each || listed.calls === 0) throw new Error('no model calls were recorded');
    for (const r of results) {
      report.add({ benchmark: NAME, figure: `replanAfter ${r.label}: model calls`, measured: String(r.calls) });
      report.add({
        benchmark: NAME,
        figure: `replanAfter ${r.label}: tokens (fake's usage)`,
        measured: String(r.tokens),
      });
    }
    report.add({ benchmark: NAME, figure: 'each / listed: model calls', measured: fixed(each.calls / listed.calls) });
    report.add({ benchmark: NAME, figure: 'each / listed: tokens', measured: fixed(each.tokens / listed.tokens) });
    const purposes = [...new Set(results.flatMap((r) => [...r.byPurpose.keys()]))];
    report.table(
      `${NAME}: model calls by purpose (4-step chain, one agent each)`,
      ['replanAfter', ...purposes, 'all', 'tokens'],
      results.map((r) => [
        r.label,
        ...purposes.map((p) => String(r.byPurpose.get(p) ?? 0)),
        String(r.calls),
        String(r.tokens),
      ]),
    );
    report.note(
      `${NAME}: one agent per mode on the same 4-step chain; the replanner keeps the remaining steps; ` +
        `tokens are the fake's usage (computed from text sizes), read from its request log.`,
    );
  });
}
