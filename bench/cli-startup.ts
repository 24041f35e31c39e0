/**
 * Benchmark 10, the CLI's start-up: wall time of `cairn --help` and `cairn ls` (against the run's
 * dev server) as separate processes, the compiled CLI that bin/cairn.js runs (bin/cli-cache.js)
 * beside the same sources under tsx, as bin/cairn.js ran them before there was a build; median of
 * 5 runs each after one warm-up.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildBundle, currentBundle } from '../bin/cli-cache';
import { median, ms, since, type BenchEnv } from './common';
import type { Report } from './report';

const RUNS = 5;
const NAME = '10. CLI start-up';
const ROOT = join(__dirname, '..');
const TSX_LOADER = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'loader.mjs')).href;

/** How each way starts the CLI: the arguments before the command's own. */
const WAYS = {
  compiled: [join(ROOT, 'bin', 'cairn.js')],
  tsx: ['--import', TSX_LOADER, join(ROOT, 'client', 'cli', 'main.ts')],
} as const;

/** Wall time of one run, in milliseconds; throws when it does not exit 0. */
function timed(args: readonly string[], address: string): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', TEMPORAL_ADDRESS: address },
  });
  const elapsed = since(start);
  if (result.status !== 0) throw new Error(`cairn ${args.at(-1)} exited ${result.status}: ${result.stderr.trim()}`);
  return elapsed;
}

export async function cliStartup(env: BenchEnv, report: Report): Promise<void> {
  // The build bin/cairn.js would otherwise make in the background on its first run.
  if (currentBundle() === undefined && (await buildBundle()) === undefined)
    throw new Error('another build of the CLI holds the lock; run again when it is done');
  const runs: string[] = [];
  for (const command of ['--help', 'ls'] as const) {
    for (const [way, prefix] of Object.entries(WAYS)) {
      const args = [...prefix, command];
      timed(args, env.address); // warm-up, not counted: tsx's transform cache, the OS's file cache
      const times = Array.from({ length: RUNS }, () => timed(args, env.address));
      const m = median(times);
      const row = { benchmark: NAME, figure: `\`cairn ${command}\`, ${way} (median of ${RUNS})`, measured: ms(m) };
      report.add(way === 'compiled' ? { ...row, target: '≤ 1 s', met: m <= 1000 } : row);
      runs.push(`${command} ${way}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
    }
  }
  report.note(
    `${NAME}: each a new \`node\` process, exit 0 required; \`ls\` lists the agents the earlier benchmarks left ` +
      `on the dev server. Runs: ${runs.join('; ')}.`,
  );
}
