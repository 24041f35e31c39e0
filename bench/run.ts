/**
 * `npm run bench` (not part of `npm test`): starts one Temporal dev server on a free port with
 * a temporary SQLite file, bundles the workflows once, runs the benchmarks in order, prints
 * each figure beside its target (every verdict computed from the figures), writes BENCHMARKS.md
 * and tears everything down. Exits non-zero when a benchmark crashed or measured nothing (the
 * file is still written, with the error); a target not met is reported, not fatal.
 * `npm run bench -- 1 2` runs only benchmarks 1 and 2 and prints them without writing the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { format, resolveConfig } from 'prettier';
import { ensureTemporalCli, startDevServer, temporalVersion } from '../scripts/dev-server';
import { freePort } from '../testkit/free-port';
import { PRELOAD_MODULES, WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../worker/workflows-path';
import { bundleLeanWorkflows } from './lean/lean-worker';
import type { BenchEnv } from './common';
import { cliStartup } from './cli-startup';
import { concurrency } from './concurrency';
import { durabilityTax } from './durability-tax';
import { historyGrowth } from './history';
import { liveOutput } from './live-output';
import { parallelEfficiency } from './parallel-efficiency';
import { parkedFloor } from './parked-floor';
import { parkedThreads } from './parked-threads';
import { planVisible } from './plan-visible';
import { replanAfter } from './replan-after';
import { chooseBenchmarks } from './choose';
import { Report } from './report';

const BENCHMARKS: [string, (env: BenchEnv, report: Report) => Promise<void>][] = [
  ['1. Durability tax', durabilityTax],
  ['2. Parallel efficiency', parallelEfficiency],
  ['3. Concurrency', concurrency],
  ['4. History', historyGrowth],
  ['5. Plan visible', planVisible],
  ['6. Live output', liveOutput],
  ['7. Replan after', replanAfter],
  ['8. Parked threads', parkedThreads],
  ['9. Parked floor', parkedFloor],
  ['10. CLI start-up', cliStartup],
];

/** The closing lines: targets not met, benchmarks that crashed. */
function closingLines(report: Report): string {
  const unmet = report.unmet();
  return [
    `\n${unmet.length} target(s) not met${unmet.length > 0 ? `: ${unmet.join('; ')}` : ''}`,
    ...(report.errors.length > 0
      ? [`bench FAILED: ${report.errors.length} benchmark error(s): ${report.errors.join('; ')}`]
      : []),
    '',
  ].join('\n');
}

async function main(): Promise<0 | 1> {
  const began = performance.now();
  // Before anything starts: a benchmark number that names none is an error, not a run of nothing.
  const only = process.argv.slice(2);
  const chosen = chooseBenchmarks(only, BENCHMARKS);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const cli = ensureTemporalCli();
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const server = await startDevServer({
    cli,
    dbFile: join(dir, 'bench.db'),
    port: await freePort(),
    logFile: join(dir, 'server.log'),
  });
  const report = new Report();
  try {
    process.stdout.write(`dev server at ${server.address}; bundling workflows...\n`);
    // The bundle production runs: the same entry, preloaded modules and interceptor modules.
    const { code } = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      preloadModules: PRELOAD_MODULES,
      workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
      logger: new DefaultLogger('WARN'),
    });
    const serverPid = server.process.pid;
    if (serverPid === undefined) throw new Error('the dev server has no process id');
    const env: BenchEnv = {
      address: server.address,
      workflowCode: code,
      workspace: join(dir, 'workspace'),
      leanWorkflowCode: await bundleLeanWorkflows(),
      serverPid,
    };
    for (const [name, bench] of chosen) {
      process.stdout.write(`\n${name}\n`);
      const start = performance.now();
      try {
        await bench(env, report);
      } catch (err) {
        report.error(name, `crashed: ${err instanceof Error ? err.message : String(err)}`);
      }
      process.stdout.write(`  (${((performance.now() - start) / 1000).toFixed(1)} s)\n`);
    }
    const markdown = report.markdown(
      {
        date: new Date().toISOString(),
        nproc: cpus().length,
        memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
        node: process.version,
        temporal: temporalVersion(cli),
        os: `${platform()} ${release()}`,
      },
      performance.now() - began,
    );
    if (only.length > 0) {
      process.stdout.write(`\n${markdown}\n(only ${only.join(', ')}: BENCHMARKS.md left as it was)\n`);
      process.stdout.write(closingLines(report));
      return report.exitCode();
    }
    // Formatted as `npm run lint` (prettier --check .) expects.
    const file = join(__dirname, '..', 'BENCHMARKS.md');
    const options = (await resolveConfig(file)) ?? {};
    writeFileSync(file, await format(markdown, { ...options, parser: 'markdown' }));
    process.stdout.write('\nwrote BENCHMARKS.md\n');
    process.stdout.write(closingLines(report));
    return report.exitCode();
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
