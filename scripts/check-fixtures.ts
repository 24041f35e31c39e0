/**
 * The gate that keeps every release's fixtures (CONTRIBUTING.md, "Gates and releases"): what a
 * release recorded is never changed, so new code is tested against what released code really
 * wrote. Jest runs it (test/unit/fixtures-frozen.test.ts); `npx tsx scripts/check-fixtures.ts`
 * prints the problems (exit 1 if any); `--update` first rewrites the current version's manifests.
 *
 * A release is the commit that sets package.json's version to `X.Y.Z` from another one
 * (`X.Y.Z-dev` since 0.4.0); the project's first version counts as released once the next one
 * was set. The rules:
 * - frozen: a release's folder holds exactly the files it held at its release commit — nothing
 *   added, changed or removed; the only accepted removal is a retirement recorded in
 *   test/fixtures/retired.json (scripts/fixture-retirements.ts) for the content it had then;
 * - development: the current `-dev` version's folder is not kept — its recordings may be replaced
 *   until the release, which records every scenario again into `X.Y.Z/` and deletes `X.Y.Z-dev/`;
 * - manifests: every version's folder has a SHA256SUMS matching its files (`sha256sum -c` checks
 *   the same by hand); only the current version's changes, by `--update` after recording;
 * - layout: the current version has its folder; no folder is misnamed, newer than it, or the
 *   `-dev` folder of another version;
 * - retirements name content really recorded at that path, and patches the registry retired.
 * It compares content, not commits, so no route through git gets past it (a branch that began
 * before a release and merged after it, an edit made together with its manifest, a lowered
 * version). It needs the full history: on a shallow clone or without git it fails, saying how.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PATCH_INFO, type PatchInfo } from '../workflows/base/patches';
import { blobContent, filesAt, historyUnavailable, recordings, versionChanges, workingBlobs } from './fixture-git';
import {
  compareReleases,
  currentVersion,
  FIXTURE_ROOTS,
  fixtureFiles,
  isDevVersion,
  isVersion,
  MANIFEST,
  readManifest,
  releaseFolders,
  REPO_ROOT,
  sha256,
  writeManifest,
} from './fixture-releases';
import { freezeCommits } from './fixture-freezes';
import { readRetirements, RETIRED_MANIFEST, type Retirement } from './fixture-retirements';

/** What the check found: problems fail it, notes only inform. */
export interface FixtureReport {
  problems: string[];
  notes: string[];
}

/** The command that records the current version's scenarios. */
export const RECORD_COMMAND =
  'CAIRN_RECORD_HISTORIES=1 npx jest test/integration test/scenarios test/e2e --maxWorkers=1 && npx tsx scripts/check-fixtures.ts --update';

/** Checks the fixtures of the repository at `repoDir`: layout and manifests, then against the git history. */
export function checkFixtures(repoDir: string = REPO_ROOT): FixtureReport {
  const report: FixtureReport = { problems: [], notes: [] };
  const version = currentVersion(repoDir);
  const { retirements, problem } = readRetirements(repoDir);
  if (problem) report.problems.push(problem);
  report.problems.push(...retirementProblems(retirements));
  const retired = new Set(retirements.map((r) => r.path));
  for (const root of FIXTURE_ROOTS) checkManifests(repoDir, root, version, retired, report);
  const unavailable = historyUnavailable(repoDir);
  if (unavailable) {
    report.problems.push(unavailable);
    return report;
  }
  const freezes = freezeCommits(versionChanges(repoDir));
  for (const root of FIXTURE_ROOTS) checkFrozen(repoDir, root, freezes, retirements, report);
  checkRetired(repoDir, retirements, report);
  return report;
}

/** Rewrites the manifests of the current version's folders (never those of releases before it). */
export function updateManifests(repoDir: string = REPO_ROOT): string[] {
  const version = currentVersion(repoDir);
  return FIXTURE_ROOTS.map((root) => join(repoDir, root, version))
    .filter((dir) => existsSync(dir))
    .map((dir) => {
      writeManifest(dir);
      return join(dir, MANIFEST);
    });
}

/** A retirement must follow patches the registry marks retired. */
function retirementProblems(retirements: Retirement[]): string[] {
  const registry = PATCH_INFO as Record<string, PatchInfo>;
  return retirements.flatMap((r) =>
    r.patches
      .filter((id) => !Object.values(registry).some((p) => p.id === id && p.stage === 'retired'))
      .map(
        (id) =>
          `${RETIRED_MANIFEST}: ${r.path} names patch ${id}, which workflows/base/patches.ts does not mark retired`,
      ),
  );
}

function checkManifests(
  repoDir: string,
  root: string,
  version: string,
  retired: Set<string>,
  report: FixtureReport,
): void {
  const rootDir = join(repoDir, root);
  const folders = releaseFolders(rootDir);
  const loose = existsSync(rootDir) ? readdirSync(rootDir).filter((f) => !folders.includes(f)) : [];
  for (const file of loose) report.problems.push(`${root}/${file}: outside a version folder (${root}/<version>/)`);
  if (!folders.includes(version)) {
    report.problems.push(`${root}/${version}: none recorded for the current version; record them: ${RECORD_COMMAND}`);
  }
  for (const folder of folders) {
    const where = `${root}/${folder}`;
    if (!isVersion(folder)) {
      report.problems.push(`${where}: not a version (MAJOR.MINOR.PATCH or MAJOR.MINOR.PATCH-dev)`);
      continue;
    }
    if (compareReleases(folder, version) > 0) {
      report.problems.push(`${where}: newer than package.json's version ${version}`);
      continue;
    }
    if (isDevVersion(folder) && folder !== version) {
      report.problems.push(
        `${where}: a development folder of another version (its release records every scenario again into ${folder.replace(/-dev$/, '')}/ and deletes this one)`,
      );
      continue;
    }
    const fix =
      folder !== version
        ? `release ${folder} is frozen: restore its files from git, never re-record them`
        : 'restore it from git, or run `npx tsx scripts/check-fixtures.ts --update` for a new recording';
    const manifest = readManifest(join(rootDir, folder));
    if (!manifest) {
      report.problems.push(`${where}: no ${MANIFEST} (${fix})`);
      continue;
    }
    const files = fixtureFiles(join(rootDir, folder));
    for (const [file, hash] of manifest) {
      if (!files.includes(file)) {
        if (!retired.has(`${where}/${file}`)) report.problems.push(`${where}/${file}: deleted (${fix})`);
      } else if (sha256(join(rootDir, folder, file)) !== hash)
        report.problems.push(`${where}/${file}: changed (${fix})`);
    }
    const addFix = folder !== version ? fix : 'run `npx tsx scripts/check-fixtures.ts --update` after recording';
    for (const file of files.filter((f) => !manifest.has(f))) {
      report.problems.push(`${where}/${file}: added, not in ${MANIFEST} (${addFix})`);
    }
  }
}

/** A release's folder holds exactly what it held at the commit that released it, or retired it since. */
function checkFrozen(
  repoDir: string,
  root: string,
  freezes: Map<string, string>,
  retirements: Retirement[],
  report: FixtureReport,
): void {
  for (const [release, frozenBy] of freezes) {
    const where = `${root}/${release}`;
    const then = filesAt(repoDir, frozenBy, where);
    const nowFiles = existsSync(join(repoDir, where))
      ? fixtureFiles(join(repoDir, where)).map((f) => `${where}/${f}`)
      : [];
    const now = workingBlobs(repoDir, [
      ...nowFiles,
      ...(existsSync(join(repoDir, where, MANIFEST)) ? [`${where}/${MANIFEST}`] : []),
    ]);
    const at = `release ${release} was frozen by commit ${frozenBy.slice(0, 10)}`;
    const restore = 'restore it from git (`git checkout <commit> -- <path>`)';
    for (const [path, blob] of now) {
      const before = then.get(path);
      if (before === undefined) report.problems.push(`${path}: added after ${at}`);
      else if (before !== blob) report.problems.push(`${path}: differs from the content it had when ${at}; ${restore}`);
    }
    for (const [path, blob] of then) {
      if (now.has(path)) continue;
      const retirement = retirements.find((r) => r.path === path);
      if (!retirement) {
        report.problems.push(`${path}: removed after ${at}; ${restore}`);
        continue;
      }
      const content = blobContent(repoDir, blob);
      const kept = content ? createHash('sha256').update(content).digest('hex') : '';
      if (retirement.sha256 !== kept) {
        report.problems.push(
          `${path}: removed, and ${RETIRED_MANIFEST} retires other content (sha256 ${retirement.sha256.slice(0, 12)}…, kept ${kept.slice(0, 12)}…)`,
        );
      }
    }
  }
}

/** Each retirement names content once recorded at its path, and that path is gone. */
function checkRetired(repoDir: string, retirements: Retirement[], report: FixtureReport): void {
  for (const r of retirements) {
    if (existsSync(join(repoDir, r.path))) {
      report.problems.push(`${RETIRED_MANIFEST}: ${r.path} is retired but still in the working tree`);
      continue;
    }
    const root = FIXTURE_ROOTS.find((f) => r.path.startsWith(`${f}/`));
    const recorded = root ? recordings(repoDir, root).filter((rec) => rec.path === r.path) : [];
    const shas = recorded.map((rec) => {
      const content = blobContent(repoDir, rec.blob);
      return content ? createHash('sha256').update(content).digest('hex') : '';
    });
    if (!shas.includes(r.sha256)) {
      report.problems.push(
        `${RETIRED_MANIFEST}: ${r.path} retires content never recorded at that path (sha256 ${r.sha256.slice(0, 12)}…)`,
      );
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
