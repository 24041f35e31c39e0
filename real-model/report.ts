/** The real-model suite's table (agent, outcome, code, calls, tokens, time) and its other lines. */
import type { AgentEvidence, Violation } from './checks';
import { plans, type AgentCase } from './agents';
import type { Exchange } from './recording-proxy';
import type { AgentRun } from './stand-in';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(0)} s`;

function planOutcome(agent: AgentCase, run: AgentRun): string {
  if (!plans(agent)) return '-';
  const events = run.state?.events ?? [];
  if (events.some((e) => e.type === 'plan.repaired')) return 'repaired';
  if (!run.state?.plan) return 'none';
  const rejected = events.filter((e) => e.type === 'plan.rejected').length;
  return rejected === 0 ? 'ok' : `ok after ${rejected}`;
}

function table(header: string[], rows: string[][]): string {
  const cells = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => (i < 4 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The name a run goes by in the report: its agent's, with the attempt when it is not the first (`write-approval-2`). */
const runName = ({ agent, run }: AgentEvidence): string => run.id.replace(/^real-model-/, '') || agent.name;

/**
 * One row per agent: how it ended, its failure code, how it got its plan (`-` in ReAct mode;
 * `ok`, `ok after N` rejected replies, `repaired`: the planner's last resort, see
 * docs/architecture/planning.md), the model calls made for it, the tokens Cairn counted, its
 * longest reply, its wall time and how many checks it broke.
 */
export function agentTable(results: { evidence: AgentEvidence; violations: Violation[] }[]): string {
  const header = ['agent', 'outcome', 'code', 'plan', 'calls', 'tokens', 'longest reply', 'time', 'violations'];
  const rows = results.map(({ evidence, violations }) => {
    const { agent, run, exchanges } = evidence;
    return [
      runName(evidence),
      run.outcome,
      run.code ?? '-',
      planOutcome(agent, run),
      String(exchanges.length),
      String(run.state?.usage.totalTokens ?? 0),
      String(Math.max(0, ...exchanges.map((e) => e.completionTokens ?? 0))),
      seconds(run.wallMs),
      String(violations.length),
    ];
  });
  return table(header, rows);
}

/**
 * One row per call purpose over the whole run: how many calls, the `max_tokens` sent (or
 * none), the response formats asked for, how replies ended, and the HTTP errors (`hung up`: the
 * worker gave up first, at its LLM timeout). A request with no purpose (the worker's start-up
 * probe, `GET /props`) is named by its path.
 */
export function purposeTable(exchanges: Exchange[]): string {
  const purposeOf = (e: Exchange) => e.purpose ?? e.path;
  const purposes = [...new Set(exchanges.map(purposeOf))].sort();
  const header = [
    'purpose',
    'max_tokens sent',
    'response_format',
    'calls',
    'median call',
    'tokens/s',
    'finish reasons',
    'errors',
  ];
  const tally = (values: string[]) =>
    [...values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>())]
      .map(([v, n]) => `${v} ${n}`)
      .join(', ') || '-';
  const rows = purposes.map((purpose) => {
    const mine = exchanges.filter((e) => purposeOf(e) === purpose);
    return [
      purpose,
      tally(mine.map((e) => (e.maxTokens === undefined ? 'none' : String(e.maxTokens)))),
      tally(mine.map((e) => e.responseFormat ?? 'none')),
      String(mine.length),
      medianCall(mine),
      speed(mine),
      tally(mine.flatMap((e) => (e.finishReason ? [e.finishReason] : []))),
      tally(
        mine
          .filter((e) => e.status < 200 || e.status >= 300)
          .map((e) => (e.status === 0 ? 'hung up' : String(e.status))),
      ),
    ];
  });
  return table(header, rows);
}

/** The median time of the calls answered (2xx), e.g. `74.2 s`. */
function medianCall(exchanges: Exchange[]): string {
  const times = answered(exchanges)
    .map((e) => e.durationMs)
    .sort((a, b) => a - b);
  const mid = times[Math.floor(times.length / 2)];
  return mid === undefined ? '-' : `${(mid / 1000).toFixed(1)} s`;
}

/**
 * Reply tokens per second of call time over the calls answered: how fast the server served this
 * purpose, prompt reading and waiting for a slot included. A slow machine shows here first.
 */
function speed(exchanges: Exchange[]): string {
  const counted = answered(exchanges).filter((e) => e.completionTokens !== undefined);
  const tokens = counted.reduce((sum, e) => sum + (e.completionTokens ?? 0), 0);
  const ms = counted.reduce((sum, e) => sum + e.durationMs, 0);
  return ms > 0 && tokens > 0 ? (tokens / (ms / 1000)).toFixed(1) : '-';
}

const answered = (exchanges: Exchange[]) => exchanges.filter((e) => e.status >= 200 && e.status < 300);

/** The violations, one line each, under their agent's name. */
export function violationLines(results: { evidence: AgentEvidence; violations: Violation[] }[]): string[] {
  return results.flatMap(({ evidence, violations }) =>
    violations.map((v) => `  ${runName(evidence)}: [${v.check}] ${v.detail}`),
  );
}
