/**
 * Which commit froze each release's fixtures, from the commits that set package.json's version
 * (scripts/fixture-git.ts `versionChanges`, parents first). A release is frozen by its release
 * commit: the first commit that sets the version to `X.Y.Z` from another version (`X.Y.Z-dev`
 * since 0.4.0; before that, the previous release). The project's first version was set by the
 * commit that created package.json and was no release then: its folder kept growing, so it is
 * frozen by the first commit that set a newer version.
 */
import type { VersionChange } from './fixture-git';
import { compareReleases, isRelease } from './fixture-releases';

/** Release → the commit that froze its folder. Development versions are never frozen. */
export function freezeCommits(changes: readonly VersionChange[]): Map<string, string> {
  return new Map([...releaseCommits(changes)].map(([release, { frozenBy }]) => [release, frozenBy]));
}

/** Where a release is in git: the commit that froze its fixtures, and a commit holding the code it shipped. */
export interface ReleaseCommits {
  frozenBy: string;
  /** The release commit; for the first version, the last commit before the next version was set. */
  code: string;
}

/** Release → its commits, as `freezeCommits` finds them. */
export function releaseCommits(changes: readonly VersionChange[]): Map<string, ReleaseCommits> {
  const out = new Map<string, ReleaseCommits>();
  let previous: string | undefined;
  let first: string | undefined;
  for (const { commit, version } of changes) {
    if (previous === undefined) first = version;
    else if (version !== previous) {
      if (isRelease(version) && !out.has(version)) out.set(version, { frozenBy: commit, code: commit });
      if (first !== undefined && isRelease(first) && !out.has(first) && compareReleases(version, first) > 0)
        out.set(first, { frozenBy: commit, code: `${commit}^` });
    }
    previous = version;
  }
  return out;
}
