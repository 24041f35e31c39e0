/**
 * `npm run test:cluster` (CI runs it after `npm run chaos`): Cairn on the production shape, under
 * fire. Provisions PostgreSQL and the Temporal server at the pinned version (scripts/ensure-*.sh,
 * cached under .tools/), starts a real cluster on loopback — PostgreSQL, schemas by
 * temporal-sql-tool, frontend, matching, worker and two history hosts as separate processes from
 * one config template — registers Cairn's search attributes with `npm run setup-cluster`, and
 * starts two Cairn workers and the web server pointed at it by their environment alone. An
 * agent started through the web server waits at its plan check throughout. Then the scenarios
 * (scenarios.ts) run one after another, and the plan check is answered at the end. Prints a
 * verdict per scenario, the chaos suite's table and a table of what each fault cost; exits
 * non-zero unless every scenario passed (FAIL or INCONCLUSIVE: a fault without evidence that it
 * hit work proves nothing) and the world closed cleanly — a problem found only when closing (the
 * fake LLM had no reply for a request, a hold never released) is a FAIL of its own, `closing`.
 * A run that is not a pass keeps the run's folder (every process's log) for a look.
 * `CLUSTER_KEEP=1` keeps it after a pass too; `CHAOS_SEED=<n>` replays the random choices.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTemporal } from '../temporal/connection';
import { chaosSeed, Prng } from '../chaos/prng';
import { scenarioLines, summaryTable, type ScenarioResult } from '../chaos/report';
import { SCENARIO_CRASHED } from '../chaos/verdict';
import { SEARCH_ATTRIBUTE_KEYS } from '../scripts/dev-server';
import { Cluster, NAMESPACE, type ClusterPrograms } from './cluster';
import { faultTable } from './fault-table';
import { TEMPORAL_SERVER_VERSION } from './pinned';
import { PlanCheckAgent } from './plan-check-agent';
import { baseline, frontendRestart, historyKill, postgresRestart, workerKill } from './scenarios';
import type { ClusterRun, ClusterScenario } from './under-fault';
import { npmRunToEnd, World } from './world';
import { runUploadCheck } from './upload-check';
import { failedRow, suiteRows, suiteVerdict } from './suite-results';

const ROOT = join(__dirname, '..');

/** The scenarios with a fault; the agent at its plan check must wait through every one. */
const FAULTS: [string, ClusterScenario][] = [
  ['history-kill', historyKill],
  ['frontend-restart', frontendRestart],
  ['postgres-restart', postgresRestart],
  ['worker-kill', workerKill],
];

const SCENARIOS: [string, ClusterScenario][] = [['baseline', baseline], ...FAULTS];

const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const message = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));
const secondsSince = (t: number): string => `${((performance.now() - t) / 1000).toFixed(1)} s`;

/** Runs a provisioning script and returns the folder it prints. */
function provision(script: string): string {
  const started = performance.now();
  const out = execFileSync('bash', [join(ROOT, 'scripts', script)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  say(`  ${script}: ${secondsSince(started)}`);
  return out;
}

/** Waits until the frontend lists every Cairn search attribute for the namespace. */
async function searchAttributesRegistered(address: string): Promise<string[]> {
  const connection = await connectTemporal({ address });
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: NAMESPACE });
    return SEARCH_ATTRIBUTE_KEYS.map((k) => k.name).filter((name) => customAttributes?.[name] === undefined);
  } finally {
    await connection.close();
  }
}

/** A scenario that crashed is a failure with what is known, not an exit. */
function crashed(name: string, err: unknown, started: number): ClusterRun {
  const result = failedRow(name, [`${SCENARIO_CRASHED}${message(err)}`], performance.now() - started);
  return { result, fault: { scenario: name, fault: '?', at: '-', downMs: 0 }, struckMidRun: false };
}

/** The upload check (upload-check.ts) as a run of its own: no fault, one agent. */
async function uploadRun(world: World): Promise<ClusterRun> {
  const started = performance.now();
  try {
    const check = await runUploadCheck(world.webUrl, world.client);
    const result = {
      ...failedRow('upload', check.failures, 0),
      ...check,
      runs: 1,
      completed: check.failures.length ? 0 : 1,
    };
    result.wallMs = performance.now() - started;
    return { result, fault: { scenario: 'upload', fault: 'none', at: '-', downMs: 0 }, struckMidRun: false };
  } catch (err) {
    return crashed('upload', err, started);
  }
}

async function main(): Promise<number> {
  const began = performance.now();
  const seed = chaosSeed();
  const prng = new Prng(seed);
  say(`cluster suite: Temporal server ${TEMPORAL_SERVER_VERSION}, seed ${seed} (replay with CHAOS_SEED=${seed})`);
  say('provisioning:');
  const programs: ClusterPrograms = {
    pgBin: provision('ensure-postgres.sh'),
    temporalDir: provision('ensure-temporal-server.sh'),
  };
  const root = mkdtempSync(join(tmpdir(), 'cairn-cluster-'));
  say(`starting the cluster (logs in ${root}):`);
  const cluster = await Cluster.start(root, programs, (line) => say(line));
  const runs: ClusterRun[] = [];
  const results: ScenarioResult[] = []; // the runs' results and, when closing found problems, a row for them
  let world: World | undefined;
  let keep = process.env.CLUSTER_KEEP === '1';
  try {
    let lap = performance.now();
    const setup = await npmRunToEnd('setup-cluster', World.temporalEnv(cluster));
    say(`  npm run setup-cluster in ${secondsSince(lap)}: ${setup.trim().split('\n').at(-1) ?? ''}`);
    const missing = await searchAttributesRegistered(cluster.address);
    if (missing.length > 0)
      throw new Error(`search attributes not registered after setup-cluster: ${missing.join(', ')}`);
    lap = performance.now();
    world = await World.open(cluster, root, prng.fork());
    say(`  npm run web in ${secondsSince(lap)} (${world.webUrl})`);
    lap = performance.now();
    await world.startWorker();
    await world.startWorker();
    say(`  two Cairn workers polling in ${secondsSince(lap)}`);
    const waiting = await PlanCheckAgent.start(world);
    say(`  ${waiting.id} waits at its plan check; cluster ready after ${secondsSince(began)}`);

    for (const [name, scenario] of SCENARIOS) {
      const own = prng.fork();
      say(`\n${name}...`);
      const started = performance.now();
      const run = await scenario(world.view(name), own).catch((err: unknown) => crashed(name, err, started));
      runs.push(run);
      scenarioLines(run.result).forEach(say);
    }
    say('\nupload...');
    runs.push(await uploadRun(world));
    scenarioLines(runs.at(-1)?.result ?? failedRow('upload', ['no result'], 0)).forEach(say);
    say('\nplan-check...');
    const started = performance.now();
    const faults = { struck: runs.filter((r) => r.struckMidRun).length, all: FAULTS.length };
    const answered = await waiting
      .confirmAndVerify(world.view('plan-check'), faults)
      .catch((err: unknown) => crashed('plan-check', err, started));
    runs.push(answered);
    scenarioLines(answered.result).forEach(say);
  } finally {
    const closing = performance.now();
    const problems =
      (await world?.close().catch((err: unknown) => [`closing the world failed: ${message(err)}`])) ?? [];
    results.push(
      ...suiteRows(
        runs.map((r) => r.result),
        problems,
        performance.now() - closing,
      ),
    );
    const row = results.at(-1);
    if (problems.length > 0 && row) {
      say('');
      scenarioLines(row).forEach(say);
    }
    const verdict = suiteVerdict(results);
    keep ||= verdict !== 'PASS' || runs.length === 0;
    await cluster.stop(keep);
    if (keep) say(`logs kept in ${root} and ${cluster.postgres.dir}`);
    else rmSync(root, { recursive: true, force: true });
  }
  say(`\n${summaryTable(results, performance.now() - began)}`);
  say(`\n${faultTable(runs.map((r) => ({ ...r.fault, wallMs: r.result.wallMs })))}`);
  const verdict = suiteVerdict(results);
  say(
    `\ncluster suite ${{ PASS: 'passed', FAIL: 'FAILED', INCONCLUSIVE: 'INCONCLUSIVE (proved nothing)' }[verdict]} ` +
      `in ${secondsSince(began)} (seed ${seed})`,
  );
  return verdict === 'PASS' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`cluster suite failed: ${message(err)}\n`);
    process.exit(1);
  },
);
