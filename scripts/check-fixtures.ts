/**
 * The gate that keeps every release's fixtures (docs/operations.md#the-replay-gate): a history or
 * carry, once recorded, is never changed, so new code is tested against what old code really
 * wrote. Jest runs it (test/unit/fixtures-frozen.test.ts); `npx tsx scripts/check-fixtures.ts`
 * prints the problems (exit 1 if any); `--update` first rewrites the current release's manifests.
 *
 * It compares content, not commits, so no route through git gets past it — a branch that began
 * before a release and merges after it, an edit made together with its manifest, a lowered
 * version:
 * - append-only: every fixture file ever added in the history of HEAD (merges included) must be
 *   in the working tree with the content it was first recorded with; the only accepted removal
 *   is a retirement recorded in test/fixtures/retired.json (scripts/fixture-retirements.ts);
 * - frozen: once a commit raised package.json's version past a release, that release's folder
 *   must hold exactly the files it held at that commit (nothing added, changed or removed);
 * - manifests: every release folder has a SHA256SUMS matching its files (`sha256sum -c` checks
 *   the same by hand); only the current release's grows, by `--update` after recording;
 * - layout: the current release has its folder, and no folder is misnamed or newer than it.
 * It needs the full history: on a shallow clone or without git it fails, saying how to fix it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PATCH_INFO, type PatchInfo } from '../workflows/patches';
import {
  blobContent,
  filesAt,
  historyUnavailable,
  recordings,
  versionChanges,
  workingBlobs,
  type Recording,
} from './fixture-git';
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
import { readRetirements, RETIRED_MANIFEST, type Retirement } from './fixture-retirements';

/** What the check found: problems fail it, notes only inform. */
export interface FixtureReport {
  problems: string[];
  notes: string[];
}

/** The command that records the current release's new scenarios. */
export const RECORD_COMMAND =
  'CAIRN_RECORD_HISTORIES=1 npx jest test/integration test/scenarios test/e2e --maxWorkers=1 && npx tsx scripts/check-fixtures.ts --update';

const RESTORE = 'kept fixtures are never changed or removed: restore it from git (`git checkout <commit> -- <path>`)';

/** Checks the fixtures of the repository at `repoDir`: layout and manifests, then against the git history. */
export function checkFixtures(repoDir: string = REPO_ROOT): FixtureReport {
  const report: FixtureReport = { problems: [], notes: [] };
  const release = currentRelease(repoDir);
  const { retirements, problem } = readRetirements(repoDir);
  if (problem) report.problems.push(problem);
  report.problems.push(...retirementProblems(retirements));
  const retired = new Set(retirements.map((r) => r.path));
  for (const root of FIXTURE_ROOTS) checkManifests(repoDir, root, release, retired, report);
  const unavailable = historyUnavailable(repoDir);
  if (unavailable) {
    report.problems.push(unavailable);
    return report;
  }
  for (const root of FIXTURE_ROOTS) {
    const recorded = recordings(repoDir, root).filter((r) => inRelease(root, r.path));
    checkAppendOnly(repoDir, recorded, retirements, report);
    // Every release folder there is or ever was, so one deleted whole is checked too.
    const folders = new Set([
      ...releaseFolders(join(repoDir, root)).filter(isRelease),
      ...recorded.map((r) => r.path.slice(root.length + 1).split('/')[0] ?? ''),
    ]);
    checkFrozen(repoDir, root, [...folders], retired, report);
  }
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

/** A retirement must follow patches the registry marks retired. */
function retirementProblems(retirements: Retirement[]): string[] {
  const registry = PATCH_INFO as Record<string, PatchInfo>;
  return retirements.flatMap((r) =>
    r.patches
      .filter((id) => !Object.values(registry).some((p) => p.id === id && p.stage === 'retired'))
      .map(
        (id) => `${RETIRED_MANIFEST}: ${r.path} names patch ${id}, which workflows/patches.ts does not mark retired`,
      ),
  );
}

function checkManifests(
  repoDir: string,
  root: string,
  release: string,
  retired: Set<string>,
  report: FixtureReport,
): void {
  const rootDir = join(repoDir, root);
  const folders = releaseFolders(rootDir);
  const loose = existsSync(rootDir) ? readdirSync(rootDir).filter((f) => !folders.includes(f)) : [];
  for (const file of loose) report.problems.push(`${root}/${file}: outside a release folder (${root}/<release>/)`);
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
    const fix =
      folder !== release
        ? `release ${folder} is frozen: restore its files from git, never re-record them`
        : 'kept recordings are append-only: restore it from git, or run `npx tsx scripts/check-fixtures.ts --update` for a new recording never committed';
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
    const addFix = folder !== release ? fix : 'run `npx tsx scripts/check-fixtures.ts --update` after recording';
    for (const file of files.filter((f) => !manifest.has(f))) {
      report.problems.push(`${where}/${file}: added, not in ${MANIFEST} (${addFix})`);
    }
  }
}

const isManifest = (path: string): boolean => path.endsWith(`/${MANIFEST}`);

/** A fixture of a release folder (`<root>/<release>/<file>`); the loose files of the days before release folders are not kept. */
const inRelease = (root: string, path: string): boolean => {
  const [folder, file, ...rest] = path.slice(root.length + 1).split('/');
  return folder !== undefined && isRelease(folder) && file !== undefined && rest.length === 0;
};

/** Every fixture ever recorded is in the working tree with its first content, or retired. */
function checkAppendOnly(
  repoDir: string,
  recorded: Recording[],
  retirements: Retirement[],
  report: FixtureReport,
): void {
  const first = new Map<string, Recording>();
  for (const rec of recorded.filter((r) => !isManifest(r.path))) {
    const earlier = first.get(rec.path);
    if (!earlier) first.set(rec.path, rec);
    else if (earlier.blob !== rec.blob) {
      report.problems.push(
        `${rec.path}: recorded again with other content by commit ${rec.commit.slice(0, 10)} (first recorded by ${earlier.commit.slice(0, 10)}); ${RESTORE}`,
      );
    }
  }
  const present = [...first.keys()].filter((path) => existsSync(join(repoDir, path)));
  const blobs = workingBlobs(repoDir, present);
  for (const [path, rec] of first) {
    const now = blobs.get(path);
    if (now === rec.blob) continue;
    if (now !== undefined) {
      report.problems.push(`${path}: changed since commit ${rec.commit.slice(0, 10)} recorded it; ${RESTORE}`);
      continue;
    }
    const retirement = retirements.find((r) => r.path === path);
    const content = blobContent(repoDir, rec.blob);
    const recordedSha = content ? createHash('sha256').update(content).digest('hex') : '';
    if (!retirement) {
      report.problems.push(`${path}: deleted (recorded by commit ${rec.commit.slice(0, 10)}); ${RESTORE}`);
    } else if (retirement.sha256 !== recordedSha) {
      report.problems.push(
        `${path}: deleted, and ${RETIRED_MANIFEST} retires other content (sha256 ${retirement.sha256.slice(0, 12)}…, recorded ${recordedSha.slice(0, 12)}…)`,
      );
    }
  }
}

/** A frozen release's folder holds exactly what it held at the commit that froze it. */
function checkFrozen(
  repoDir: string,
  root: string,
  folders: string[],
  retired: Set<string>,
  report: FixtureReport,
): void {
  const changes = versionChanges(repoDir);
  for (const folder of folders) {
    const frozenBy = changes.find((c) => compareReleases(c.version, folder) > 0)?.commit;
    if (!frozenBy) continue; // still the current release: it may grow
    const where = `${root}/${folder}`;
    const then = filesAt(repoDir, frozenBy, where);
    const nowFiles = existsSync(join(repoDir, where))
      ? fixtureFiles(join(repoDir, where)).map((f) => `${where}/${f}`)
      : [];
    const now = workingBlobs(repoDir, [
      ...nowFiles,
      ...(existsSync(join(repoDir, where, MANIFEST)) ? [`${where}/${MANIFEST}`] : []),
    ]);
    const at = `release ${folder} was frozen by commit ${frozenBy.slice(0, 10)}`;
    for (const [path, blob] of now) {
      const before = then.get(path);
      if (before === undefined) report.problems.push(`${path}: added after ${at}`);
      else if (before !== blob) report.problems.push(`${path}: differs from the content it had when ${at}`);
    }
    for (const path of then.keys()) {
      if (!now.has(path) && !retired.has(path)) report.problems.push(`${path}: removed after ${at}`);
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
