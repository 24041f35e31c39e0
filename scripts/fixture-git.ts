/**
 * What git knows about the kept fixtures, for the fixture gate (scripts/check-fixtures.ts): the
 * content each fixture file was first recorded with, the commit that froze each release, and a
 * release folder's files as of a commit. Everything is read from the history reachable from
 * HEAD with merges included (`--full-history`), so a file re-recorded on a side branch and
 * merged later is seen like one changed on the main line.
 */
import { execFileSync } from 'node:child_process';
import { isVersion } from './fixture-releases';

/** Runs git in `repoDir`; undefined when git fails (not a repository, no git, unknown object). */
export function git(repoDir: string, args: string[], input?: string): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: repoDir,
      encoding: 'utf8',
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
      ...(input === undefined ? {} : { input }),
    });
  } catch {
    return undefined;
  }
}

const lines = (text: string | undefined): string[] => (text ?? '').split('\n').filter((l) => l !== '');

/** Why the history cannot be read here (no git, a shallow clone), or undefined when it can. */
export function historyUnavailable(repoDir: string): string | undefined {
  const shallow = git(repoDir, ['rev-parse', '--is-shallow-repository'])?.trim();
  if (shallow === undefined) {
    return 'no git history here: the fixture gate compares every kept fixture with the content it was recorded with, which needs the repository with its history (git clone, not an archive)';
  }
  if (shallow === 'true') {
    return 'shallow clone: the fixture gate needs the full history; run `git fetch --unshallow` (CI does)';
  }
  return undefined;
}

/** A fixture file as first recorded: its path, the commit that added it and the blob it added. */
export interface Recording {
  path: string;
  commit: string;
  blob: string;
}

/**
 * Every fixture file ever added under `root` in the history of HEAD, merges included, oldest
 * first; a path added more than once (deleted and added again, or added on two branches) has one
 * entry per add.
 */
export function recordings(repoDir: string, root: string): Recording[] {
  const log = git(repoDir, [
    'log',
    '--full-history',
    '--topo-order',
    '--reverse',
    '--no-renames',
    '--diff-filter=A',
    '--raw',
    '--no-abbrev',
    '--format=@%H',
    'HEAD',
    '--',
    root,
  ]);
  const out: Recording[] = [];
  let commit = '';
  for (const line of lines(log)) {
    if (line.startsWith('@')) {
      commit = line.slice(1);
      continue;
    }
    // :000000 100644 0000… <blob> A\t<path>
    const match = /^:\d+ \d+ [0-9a-f]+ ([0-9a-f]+) A\t(.+)$/.exec(line);
    if (match?.[1] && match[2]) out.push({ path: match[2], commit, blob: match[1] });
  }
  return out;
}

/** The git blob ids of files in the working tree (`git hash-object`), by path relative to the repo. */
export function workingBlobs(repoDir: string, paths: string[]): Map<string, string> {
  if (paths.length === 0) return new Map();
  const ids = lines(git(repoDir, ['hash-object', '--stdin-paths'], `${paths.join('\n')}\n`));
  return new Map(paths.map((p, i) => [p, ids[i] ?? '']));
}

/** The files (path → blob) under `folder` at `commit`. */
export function filesAt(repoDir: string, commit: string, folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of lines(git(repoDir, ['ls-tree', '-r', '--full-tree', commit, '--', folder]))) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line);
    if (match?.[1] && match[2]) out.set(match[2], match[1]);
  }
  return out;
}

/** The content of a blob. */
export function blobContent(repoDir: string, blob: string): Buffer | undefined {
  try {
    return execFileSync('git', ['cat-file', 'blob', blob], { cwd: repoDir, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/** The version in package.json at `commit`, if it has one. */
function versionAt(repoDir: string, commit: string): string | undefined {
  const text = git(repoDir, ['show', `${commit}:package.json`]);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as { version?: unknown };
    return typeof parsed.version === 'string' && isVersion(parsed.version) ? parsed.version : undefined;
  } catch {
    return undefined;
  }
}

/** A commit that set package.json's version. */
export interface VersionChange {
  commit: string;
  version: string;
}

/** Every commit that touched package.json in the history of HEAD (merges included), parents first. */
export function versionChanges(repoDir: string): VersionChange[] {
  const log = git(repoDir, [
    'log',
    '--full-history',
    '--topo-order',
    '--reverse',
    '--format=%H',
    'HEAD',
    '--',
    'package.json',
  ]);
  return lines(log).flatMap((commit) => {
    const version = versionAt(repoDir, commit);
    return version ? [{ commit, version }] : [];
  });
}
