/**
 * `npm run chaos` (CI runs it after `npm test`): the durability claims under fire. Each
 * scenario gets its own Temporal dev server (free port, temporary SQLite file), scripted LLM
 * and worker processes: (a) SIGKILL the worker at random moments across 20 writing agents and
 * restart it, (b) restart the dev server mid-run, (c) kill one of two workers, (d) a rolling
 * upgrade to workflow code that cannot replay the old histories, with agents caught in every
 * phase, (e) a rollback to the old version before agents move. Prints the seed
 * (`CHAOS_SEED=<n>` replays the schedule), a verdict per scenario and a final table. A scenario
 * is FAIL when an invariant broke and INCONCLUSIVE when its disruptions did not demonstrably
 * hit the work (e.g. no kill landed inside a write); either exits non-zero, keeping the
 * temporary folder (server and worker logs) for a look. `CHAOS_KEEP=1` keeps it after a pass
 * too; `CHAOS_SCENARIOS=a,b` runs only the scenarios named; `CHAOS_TOOTHLESS=1` schedules every
 * disruption before the agents start — a run that must not pass (`npm run chaos:toothless`, in
 * CI, checks that it does not); `CHAOS_SMALLEST=1` runs every scenario at its smallest size (one
 * agent per part, one kill: what chaos:toothless uses); `CHAOS_VERDICTS=<file>` writes the
 * verdicts there as JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTemporalCli, temporalVersion } from '../scripts/dev-server';
import { killsInWrites, readJournal } from './journal';
import { Lab } from './lab';
import { chaosSeed, Prng } from './prng';
import { scenarioLines, summaryTable, type ScenarioResult } from './report';
import { rollback } from './rollback';
import { rollingUpgrade } from './rolling-upgrade';
import { serverRestart } from './server-restart';
import { twoWorkers } from './two-workers';
import { runVerdict, SCENARIO_CRASHED, verdictOf } from './verdict';
import { VERDICTS_ENV, writeVerdicts } from './verdict-file';
import type { Scenario } from './verify';
import { workerKills } from './worker-kills';

const SCENARIOS: [string, Scenario][] = [
  ['worker-kills', workerKills],
  ['server-restart', serverRestart],
  ['two-workers', twoWorkers],
  ['rolling-upgrade', rollingUpgrade],
  ['rollback', rollback],
];

/** CHAOS_TOOTHLESS=1: every disruption before the agents start. */
const TOOTHLESS = process.env.CHAOS_TOOTHLESS === '1';
/** CHAOS_SMALLEST=1: every scenario at its smallest size (one agent per part, one kill). */
const SMALLEST = process.env.CHAOS_SMALLEST === '1';

const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const message = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));

/** Runs one scenario in its own lab; a crash of the scenario itself is a failure, not an exit. */
async function runScenario(name: string, scenario: Scenario, cli: string, root: string, prng: Prng) {
  const started = performance.now();
  const lab = await Lab.open({ name, cli, root, prng: prng.fork(), toothless: TOOTHLESS, smallest: SMALLEST });
  let result: ScenarioResult;
  try {
    result = await scenario(lab, prng.fork());
  } catch (err) {
    result = {
      name,
      runs: 0,
      completed: 0,
      kills: lab.kills,
      killsInWrites: killsInWrites(await readJournal(lab.workspace), lab.killed),
      restarts: lab.workerRestarts + lab.serverRestarts,
      writes: 0,
      duplicates: 0,
      missing: 0,
      failures: [`${SCENARIO_CRASHED}${message(err)}`],
      evidence: [],
      notes: [],
      wallMs: performance.now() - started,
    };
  }
  result.failures.push(...(await lab.close()));
  return result;
}

async function main(): Promise<number> {
  const began = performance.now();
  const seed = chaosSeed();
  const prng = new Prng(seed);
  const cli = ensureTemporalCli();
  const root = mkdtempSync(join(tmpdir(), 'cairn-chaos-'));
  say(`chaos seed ${seed} (replay the schedule with CHAOS_SEED=${seed}); ${temporalVersion(cli)}`);
  if (TOOTHLESS) say('CHAOS_TOOTHLESS=1: every disruption comes before the agents start');
  if (SMALLEST) say('CHAOS_SMALLEST=1: every scenario at its smallest size');
  const only = process.env.CHAOS_SCENARIOS?.split(',').map((n) => n.trim());
  const unknown = only?.filter((n) => !SCENARIOS.some(([name]) => name === n)) ?? [];
  if (unknown.length > 0) throw new Error(`CHAOS_SCENARIOS names no scenario "${unknown.join('", "')}"`);
  const results: ScenarioResult[] = [];
  for (const [name, scenario] of SCENARIOS) {
    const own = prng.fork(); // drawn even for a skipped scenario, so each one's schedule depends on the seed alone
    if (only && !only.includes(name)) continue;
    say(`\n${name}...`);
    const result = await runScenario(name, scenario, cli, root, own);
    results.push(result);
    scenarioLines(result).forEach(say);
  }
  say(`\n${summaryTable(results, performance.now() - began)}`);
  const verdictFile = process.env[VERDICTS_ENV];
  if (verdictFile) await writeVerdicts(verdictFile, TOOTHLESS, results);
  const verdict = runVerdict(results.map(verdictOf));
  const keep = verdict !== 'PASS' || process.env.CHAOS_KEEP === '1';
  if (keep) say(`logs kept in ${root}`);
  else rmSync(root, { recursive: true, force: true });
  say(
    `\nchaos ${{ PASS: 'passed', FAIL: 'FAILED', INCONCLUSIVE: 'INCONCLUSIVE (proved nothing)' }[verdict]} (seed ${seed})`,
  );
  return verdict === 'PASS' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`chaos run failed: ${message(err)}\n`);
    process.exit(1);
  },
);
