/**
 * Recorded fixtures, one folder per version: `test/fixtures/histories/<version>/…` (workflow
 * histories) and `test/fixtures/carry/<version>/…` (what an agent carried across
 * continue-as-new). The version is package.json's `version`. Recorders write into the current
 * version's folder only. A release's folder is kept and frozen from its release commit on; a
 * development version's (`X.Y.Z-dev`) may be recorded again until the release (CONTRIBUTING.md,
 * "Gates and releases"). Each folder holds a `SHA256SUMS` manifest in the format of `sha256sum`,
 * so `sha256sum -c SHA256SUMS` also checks it by hand.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The repository's root. */
export const REPO_ROOT = join(__dirname, '..');

/** The folders whose subfolders are releases, relative to the repository root. */
export const FIXTURE_ROOTS = ['test/fixtures/histories', 'test/fixtures/carry'] as const;

/** The manifest in each release folder. */
export const MANIFEST = 'SHA256SUMS';

const RELEASE = /^(\d+)\.(\d+)\.(\d+)$/;
const VERSION = /^(\d+)\.(\d+)\.(\d+)(-dev)?$/;

const packageSchema = z.object({
  version: z.string().regex(VERSION, 'version must be MAJOR.MINOR.PATCH (a release) or MAJOR.MINOR.PATCH-dev'),
});

/**
 * The current version: package.json's `version` in `repoDir` — `X.Y.Z-dev` while work towards
 * `X.Y.Z` goes on, `X.Y.Z` at its release commit. Recorders write into its folder.
 */
export function currentVersion(repoDir: string = REPO_ROOT): string {
  return packageSchema.parse(JSON.parse(readFileSync(join(repoDir, 'package.json'), 'utf8'))).version;
}

/** Whether `name` names a release (MAJOR.MINOR.PATCH): a version whose fixtures, once released, are kept. */
export function isRelease(name: string): boolean {
  return RELEASE.test(name);
}

/** Whether `name` names a version: a release, or the development towards one (`X.Y.Z-dev`). */
export function isVersion(name: string): boolean {
  return VERSION.test(name);
}

/** Whether `name` names a development version (`X.Y.Z-dev`), whose fixtures are not kept. */
export function isDevVersion(name: string): boolean {
  return isVersion(name) && !isRelease(name);
}

/** Orders two versions: negative when `a` is older than `b`; `X.Y.Z-dev` comes just before `X.Y.Z`. */
export function compareReleases(a: string, b: string): number {
  const parts = (v: string) => {
    const m = VERSION.exec(v) ?? [];
    return [...m.slice(1, 4).map(Number), m[4] === undefined ? 1 : 0];
  };
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < 4; i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** The subfolders of `rootDir` (any name, so a misnamed one is seen), oldest release first. */
export function releaseFolders(rootDir: string): string[] {
  if (!existsSync(rootDir)) return [];
  return readdirSync(rootDir)
    .filter((name) => statSync(join(rootDir, name)).isDirectory())
    .sort((a, b) => (isVersion(a) && isVersion(b) ? compareReleases(a, b) : a.localeCompare(b)));
}

/** The fixture files of a release folder (the manifest excluded), sorted. */
export function fixtureFiles(releaseDir: string): string[] {
  return readdirSync(releaseDir)
    .filter((name) => name !== MANIFEST && statSync(join(releaseDir, name)).isFile())
    .sort();
}

/** SHA-256 of a file, hex. */
export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The manifest a release folder's files call for: `<sha256>  <file>` lines, sorted by file. */
export function manifestText(releaseDir: string): string {
  return fixtureFiles(releaseDir)
    .map((name) => `${sha256(join(releaseDir, name))}  ${name}\n`)
    .join('');
}

/** Reads a manifest: file name → hash; undefined when there is none. */
export function readManifest(releaseDir: string): Map<string, string> | undefined {
  const file = join(releaseDir, MANIFEST);
  if (!existsSync(file)) return undefined;
  const entries = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (match?.[1] && match[2]) entries.set(match[2], match[1]);
  }
  return entries;
}

/** Writes the manifest of a version's folder from its files (the current version only). */
export function writeManifest(releaseDir: string): void {
  writeFileSync(join(releaseDir, MANIFEST), manifestText(releaseDir));
}
