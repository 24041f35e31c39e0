/**
 * `npm run chaos:toothless` (CI runs it after `npm run chaos`): the check that the chaos suite
 * cannot pass without hitting the work. Runs `npm run chaos` with CHAOS_TOOTHLESS=1 — every
 * disruption scheduled before the agents start, so no kill lands in a write and no restart
 * strikes mid-run — at every scenario's smallest size (CHAOS_SMALLEST=1: one agent per part, one
 * kill; the disruptions miss the work at any size, and a small run shows it sooner) — and reads
 * the verdicts it writes (CHAOS_VERDICTS). Exits 0 only when that
 * run exited non-zero and every scenario in it was INCONCLUSIVE or FAIL; a toothless run that
 * passes, a scenario that passes toothless, or a run that ended without judging its scenarios
 * fails this check.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readVerdicts, toothlessProblems, VERDICTS_ENV } from './verdict-file';

const ROOT = join(__dirname, '..');

const say = (line: string): boolean => process.stdout.write(`${line}\n`);

/** Runs `npm run chaos` toothless with the verdicts going to `file`; resolves with its exit code. */
function runToothless(file: string): Promise<number | null> {
  const child = spawn('npm', ['run', '--silent', 'chaos'], {
    cwd: ROOT,
    env: { ...process.env, CHAOS_TOOTHLESS: '1', CHAOS_SMALLEST: '1', [VERDICTS_ENV]: file },
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-toothless-'));
  try {
    const file = join(dir, 'verdicts.json');
    const code = await runToothless(file);
    const verdicts = await readVerdicts(file).catch(() => undefined);
    const problems = toothlessProblems(code, verdicts);
    say('');
    for (const s of verdicts?.scenarios ?? []) {
      const why = { FAIL: `${s.failures.length} failures`, INCONCLUSIVE: 'evidence short', PASS: 'it must not' }[
        s.verdict
      ];
      say(`toothless ${s.name}: ${s.verdict} (${why})`);
    }
    if (problems.length > 0) {
      problems.forEach((p) => say(`TOOTHLESS CHECK FAILED: ${p}`));
      return 1;
    }
    say(`toothless check passed: chaos exited ${code} and none of its ${verdicts?.scenarios.length} scenarios passed`);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `chaos:toothless failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
