/**
 * The gate that keeps every release's fixtures (docs/operations.md#changing-workflow-code):
 * histories and carries recorded by an earlier release never change, so new code is tested
 * against what old code really wrote.
 *
 * "Earlier" is relative to package.json's version: the current release's folder may still be
 * recorded again and grow; a folder of an older release is frozen. Two checks:
 * - manifests: every release folder has a SHA256SUMS that matches its files exactly (the
 *   current release's is rewritten by `--update` after recording; a frozen one never is);
 * - history: once a commit raised the version past a release, no later commit (that one
 *   included) may modify, delete or retype a file of that release's folder — manifest
 *   included, so editing a fixture and its manifest together in one commit is caught too, as
 *   is lowering the version again. This needs the full git history: on a shallow clone (or
 *   without git) it is skipped with a note, and only the manifests are checked.
 *
 * `npx tsx scripts/check-fixtures.ts` prints the problems (exit 1 if any);
 * `--update` rewrites the current release's manifests first. Jest runs the check too
 * (test/unit/fixtures-frozen.test.ts), so `npm test` fails on a changed old fixture.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareReleases,
  currentRelease,
  FIXTURE_ROOTS,
  fixtureFiles,
  isRelease,
  MANIFEST,
  readManifest,
  releaseFolders,
  REPO_ROOT,
  sha256,
  writeManifest,
} from './fixture-releases';

/** What the check found: problems fail it, notes only inform. */
export interface FixtureReport {
  problems: string[];
  notes: string[];
}

/** The command that records the current release's fixtures. */
export const RECORD_COMMAND =
  'CAIRN_RECORD_HISTORIES=1 npx jest test/integration test/e2e --maxWorkers=1 && npx tsx scripts/check-fixtures.ts --update';

/** Checks the fixtures of the repository at `repoDir` (the manifests, then the git history). */
export function checkFixtures(repoDir: string = REPO_ROOT): FixtureReport {
  const report: FixtureReport = { problems: [], notes: [] };
  const release = currentRelease(repoDir);
  for (const root of FIXTURE_ROOTS) checkManifests(repoDir, root, release, report);
  checkHistory(repoDir, report);
  return report;
}

/** Rewrites the manifests of the current release's folders (never those of earlier releases). */
export function updateManifests(repoDir: string = REPO_ROOT): string[] {
  const release = currentRelease(repoDir);
  return FIXTURE_ROOTS.map((root) => join(repoDir, root, release))
    .filter((dir) => existsSync(dir))
    .map((dir) => {
      writeManifest(dir);
      return join(dir, MANIFEST);
    });
}

function checkManifests(repoDir: string, root: string, release: string, report: FixtureReport): void {
  const rootDir = join(repoDir, root);
  const loose = existsSync(rootDir) ? readdirSync(rootDir).filter((f) => !releaseFolders(rootDir).includes(f)) : [];
  for (const file of loose) report.problems.push(`${root}/${file}: outside a release folder (${root}/<release>/)`);
  const folders = releaseFolders(rootDir);
  if (!folders.includes(release)) {
    report.problems.push(`${root}/${release}: none recorded for the current release; record them: ${RECORD_COMMAND}`);
  }
  for (const folder of folders) {
    const where = `${root}/${folder}`;
    if (!isRelease(folder)) {
      report.problems.push(`${where}: not a release (MAJOR.MINOR.PATCH)`);
      continue;
    }
    if (compareReleases(folder, release) > 0) {
      report.problems.push(`${where}: newer than package.json's version ${release}`);
      continue;
    }
    const frozen = folder !== release;
    const fix = frozen
      ? `release ${folder} is frozen: restore its files from git, never re-record them`
      : 'run `npx tsx scripts/check-fixtures.ts --update` after recording';
    const manifest = readManifest(join(rootDir, folder));
    if (!manifest) {
      report.problems.push(`${where}: no ${MANIFEST} (${fix})`);
      continue;
    }
    const files = fixtureFiles(join(rootDir, folder));
    for (const [file, hash] of manifest) {
      if (!files.includes(file)) report.problems.push(`${where}/${file}: deleted (${fix})`);
      else if (sha256(join(rootDir, folder, file)) !== hash) report.problems.push(`${where}/${file}: changed (${fix})`);
    }
    for (const file of files.filter((f) => !manifest.has(f))) {
      report.problems.push(`${where}/${file}: added, not in ${MANIFEST} (${fix})`);
    }
  }
}

/** Runs git in `repoDir`; undefined when git fails (not a repository, no git). */
function git(repoDir: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: repoDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

const lines = (text: string | undefined): string[] => (text ?? '').split('\n').filter((l) => l !== '');

/** The version in package.json at `commit`, if it has one. */
function versionAt(repoDir: string, commit: string): string | undefined {
  const text = git(repoDir, ['show', `${commit}:package.json`]);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as { version?: unknown };
    return typeof parsed.version === 'string' && isRelease(parsed.version) ? parsed.version : undefined;
  } catch {
    return undefined;
  }
}

function checkHistory(repoDir: string, report: FixtureReport): void {
  const shallow = git(repoDir, ['rev-parse', '--is-shallow-repository'])?.trim();
  if (shallow === undefined) {
    report.notes.push('no git history here: only the manifests were checked');
    return;
  }
  if (shallow === 'true') {
    report.notes.push('shallow clone: the git history check was skipped (clone with full history to run it)');
    return;
  }
  // Every version package.json ever had on this branch, oldest first, with the commit that set it.
  const bumps = lines(git(repoDir, ['log', '--reverse', '--format=%H', 'HEAD', '--', 'package.json'])).flatMap(
    (commit) => {
      const version = versionAt(repoDir, commit);
      return version ? [{ commit, version }] : [];
    },
  );
  // Every release folder that ever existed under a fixture root, deleted ones included.
  const ever = new Set<string>();
  for (const root of FIXTURE_ROOTS) {
    for (const path of lines(git(repoDir, ['log', '--format=', '--name-only', 'HEAD', '--', root]))) {
      const folder = path.slice(root.length + 1).split('/')[0];
      if (folder && isRelease(folder)) ever.add(`${root}/${folder}`);
    }
  }
  for (const where of ever) {
    const release = where.split('/').at(-1) ?? '';
    const frozenBy = bumps.find((b) => compareReleases(b.version, release) > 0)?.commit;
    if (!frozenBy) continue; // still the current release: it may be recorded again
    const log = git(repoDir, [
      'log',
      '--no-renames',
      '--diff-filter=MDT',
      '--name-status',
      '--format=@%H',
      'HEAD',
      '--',
      where,
    ]);
    let commit = '';
    for (const line of lines(log)) {
      if (line.startsWith('@')) commit = line.slice(1);
      else if (git(repoDir, ['merge-base', '--is-ancestor', frozenBy, commit]) !== undefined) {
        const [status = '', path = ''] = line.split('\t');
        const what = { M: 'modified', D: 'deleted', T: 'changed type' }[status[0] ?? ''] ?? status;
        report.problems.push(`${path}: ${what} by commit ${commit.slice(0, 10)}, after release ${release} was frozen`);
      }
    }
  }
}

if (require.main === module) {
  if (process.argv.includes('--update')) {
    for (const file of updateManifests()) process.stdout.write(`wrote ${file}\n`);
  }
  const { problems, notes } = checkFixtures();
  for (const note of notes) process.stdout.write(`note: ${note}\n`);
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  process.stdout.write(problems.length === 0 ? 'fixtures: every release intact\n' : '');
  process.exitCode = problems.length === 0 ? 0 : 1;
}
