/**
 * The chaos run's verdicts as a file, for a program that must judge the run without parsing its
 * printout: `CHAOS_VERDICTS=<path>` makes `npm run chaos` write the run's verdict and each
 * scenario's (with its failures and evidence) there as JSON. `npm run chaos:toothless` reads it
 * and judges it with `toothlessProblems`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ScenarioResult } from './report';
import { runVerdict, SCENARIO_CRASHED, unmetEvidence, verdictOf } from './verdict';

/** The environment variable naming the file. */
export const VERDICTS_ENV = 'CHAOS_VERDICTS';

const verdictSchema = z.enum(['PASS', 'FAIL', 'INCONCLUSIVE']);

const verdictFileSchema = z.object({
  toothless: z.boolean(),
  verdict: verdictSchema,
  scenarios: z.array(
    z.object({
      name: z.string(),
      verdict: verdictSchema,
      failures: z.array(z.string()),
      evidence: z.array(z.object({ what: z.string(), found: z.number(), needed: z.number() })),
    }),
  ),
});

/** What the file holds. */
export type VerdictFile = z.infer<typeof verdictFileSchema>;

/** Writes the run's verdicts to `path`. */
export async function writeVerdicts(path: string, toothless: boolean, results: ScenarioResult[]): Promise<void> {
  const file: VerdictFile = {
    toothless,
    verdict: runVerdict(results.map(verdictOf)),
    scenarios: results.map((r) => ({
      name: r.name,
      verdict: verdictOf(r),
      failures: r.failures,
      evidence: r.evidence,
    })),
  };
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`);
}

/** Reads and checks the file at `path`. */
export async function readVerdicts(path: string): Promise<VerdictFile> {
  return verdictFileSchema.parse(JSON.parse(await readFile(path, 'utf8')));
}

/**
 * Why a toothless run (exit `code`, its verdicts) does not show that chaos catches runs whose
 * disruptions hit nothing; empty when it does: non-zero exit, and every scenario INCONCLUSIVE or
 * FAIL for lack of evidence — a FAIL whose declared evidence fell short. A scenario that crashed,
 * or that failed with its evidence met (or none declared), failed for a reason of its own: a run
 * of such failures would "not pass" whether or not the verdict has teeth, so it shows nothing.
 */
export function toothlessProblems(code: number | null, verdicts: VerdictFile | undefined): string[] {
  if (!verdicts) return [`chaos exited with ${code} and wrote no verdicts: it ended before judging its scenarios`];
  const problems: string[] = [];
  if (!verdicts.toothless) problems.push('the run was not toothless (CHAOS_TOOTHLESS did not reach it)');
  if (code === 0) problems.push('chaos exited 0: a run whose disruptions hit nothing passed');
  if (verdicts.scenarios.length === 0) problems.push('no scenario ran');
  for (const s of verdicts.scenarios.filter((x) => x.verdict === 'PASS')) {
    problems.push(
      `${s.name} PASSED toothless: its evidence (${s.evidence.map((e) => e.what).join('; ')}) proves nothing`,
    );
  }
  for (const s of verdicts.scenarios.filter((x) => x.verdict === 'FAIL')) {
    const crash = s.failures.find((f) => f.startsWith(SCENARIO_CRASHED));
    if (crash !== undefined) problems.push(`${s.name} crashed, which is not a verdict: ${crash.split('\n')[0]}`);
    else if (s.evidence.length === 0 || unmetEvidence(s.evidence).length === 0)
      problems.push(`${s.name} FAILED toothless with no evidence short, so not for lack of it: ${s.failures[0] ?? ''}`);
  }
  return problems;
}
