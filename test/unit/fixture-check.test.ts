/**
 * The fixture gate (scripts/check-fixtures.ts) on throwaway git repositories. A release's folder
 * holds exactly what it held at its release commit (the commit that set `X.Y.Z` from
 * `X.Y.Z-dev`), and no route through git gets past it — an edit made with its manifest, a
 * lowered version, a branch that began before the release and merged after it, a shallow clone
 * with its manifest edited. A development version's folder may be recorded again until its
 * release. The only accepted removal of a kept fixture is a retirement recorded in
 * test/fixtures/retired.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFixtures, updateManifests } from '../../scripts/check-fixtures';

const HISTORIES = 'test/fixtures/histories';
const CARRY = 'test/fixtures/carry';

function git(dir: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=tester', '-c', 'user.email=tester@example.com', '-c', 'commit.gpgsign=false', ...args],
    { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

function write(dir: string, path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

function setVersion(dir: string, version: string): void {
  write(dir, 'package.json', JSON.stringify({ name: 'x', version }));
}

function commit(dir: string, message: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

/** Records a version's fixtures: files, then `--update`, then a commit. */
function record(dir: string, version: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) write(dir, `${HISTORIES}/${version}/${name}`, text);
  write(dir, `${CARRY}/${version}/agent-rollover.json`, `{"version":"${version}"}`);
  updateManifests(dir);
  commit(dir, `record ${version}`);
}

/** Releases `version`: sets it, records every scenario again into its folder, deletes the -dev folder. */
function release(dir: string, version: string, files: Record<string, string>): void {
  setVersion(dir, version);
  for (const root of [HISTORIES, CARRY]) rmSync(join(dir, root, `${version}-dev`), { recursive: true, force: true });
  record(dir, version, files);
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A repository at its first version, 0.1.0 (set before -dev versions existed), with its recordings. */
function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-fixtures-'));
  dirs.push(dir);
  git(dir, 'init', '-q');
  setVersion(dir, '0.1.0');
  record(dir, '0.1.0', { 'agent-a@id-1.binpb': 'a1', 'agent-b@id-2.binpb': 'b1' });
  return dir;
}

/** 0.1.0 frozen by the move to 0.2.0-dev, then 0.2.0 released from its development recordings. */
function repoReleased(): string {
  const dir = repo();
  setVersion(dir, '0.2.0-dev');
  record(dir, '0.2.0-dev', { 'agent-a@id-3.binpb': 'a2 draft' });
  release(dir, '0.2.0', { 'agent-a@id-4.binpb': 'a2' });
  return dir;
}

/** After the release, the next development version with a recording of its own. */
function repoNextDev(): string {
  const dir = repoReleased();
  setVersion(dir, '0.3.0-dev');
  record(dir, '0.3.0-dev', { 'agent-c@id-5.binpb': 'c3' });
  return dir;
}

const FROZEN_FIX = 'release 0.1.0 is frozen: restore its files from git, never re-record them';
const RESTORE = 'restore it from git (`git checkout <commit> -- <path>`)';
const short = (dir: string, rev = 'HEAD') => git(dir, 'rev-parse', rev).trim().slice(0, 10);
/** The commit that set `version` (its release commit). */
const setBy = (dir: string, version: string) =>
  git(dir, 'log', '--format=%H', '-S', `"version":"${version}"`, '--', 'package.json')
    .trim()
    .split('\n')
    .at(-1)
    ?.slice(0, 10);

test('a repository whose releases are intact passes, from the first version to the next development one', () => {
  expect(checkFixtures(repo())).toEqual({ problems: [], notes: [] });
  expect(checkFixtures(repoReleased())).toEqual({ problems: [], notes: [] });
  expect(checkFixtures(repoNextDev())).toEqual({ problems: [], notes: [] });
});

test("a development version's recordings may be changed, replaced under another name or dropped, manifest and all", () => {
  const dir = repoNextDev();
  write(dir, `${HISTORIES}/0.3.0-dev/agent-c@id-5.binpb`, 'c3 again');
  write(dir, `${HISTORIES}/0.3.0-dev/agent-d@id-6.binpb`, 'd3');
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/0.3.0-dev/agent-c@id-5.binpb: changed (restore it from git, or run \`npx tsx scripts/check-fixtures.ts --update\` for a new recording)`,
    `${HISTORIES}/0.3.0-dev/agent-d@id-6.binpb: added, not in SHA256SUMS (run \`npx tsx scripts/check-fixtures.ts --update\` after recording)`,
  ]);
  updateManifests(dir);
  commit(dir, 'record 0.3.0-dev again');
  rmSync(join(dir, `${HISTORIES}/0.3.0-dev/agent-c@id-5.binpb`));
  updateManifests(dir);
  commit(dir, 'drop a development recording');
  expect(checkFixtures(dir).problems).toEqual([]);
});

test('the first version, released before -dev versions, may grow until the next version is set, then is frozen', () => {
  const dir = repo();
  record(dir, '0.1.0', { 'agent-c@id-7.binpb': 'c1' });
  expect(checkFixtures(dir).problems).toEqual([]);
  setVersion(dir, '0.2.0-dev');
  record(dir, '0.2.0-dev', { 'agent-a@id-3.binpb': 'a2' });
  const frozenBy = short(dir, 'HEAD~0');
  write(dir, `${HISTORIES}/0.1.0/agent-late@id-8.binpb`, 'late');
  expect(checkFixtures(dir).problems).toEqual(
    expect.arrayContaining([
      `${HISTORIES}/0.1.0/agent-late@id-8.binpb: added after release 0.1.0 was frozen by commit ${frozenBy}`,
    ]),
  );
});

test("a release's folder is frozen at its release commit: a recording added after it fails, manifest and all", () => {
  const dir = repoReleased();
  const frozenBy = setBy(dir, '0.2.0');
  expect(frozenBy).toBe(short(dir));
  // Still at 0.2.0 (the next -dev version not set yet): the folder is frozen all the same.
  write(dir, `${HISTORIES}/0.2.0/agent-late@id-7.binpb`, 'recorded after the release');
  updateManifests(dir);
  commit(dir, 'add a late 0.2.0 recording');
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/0.2.0/agent-late@id-7.binpb: added after release 0.2.0 was frozen by commit ${frozenBy}`,
    `${HISTORIES}/0.2.0/SHA256SUMS: differs from the content it had when release 0.2.0 was frozen by commit ${frozenBy}; ${RESTORE}`,
  ]);
});

test('a modified or deleted fixture of a release fails, in the working tree already', () => {
  const dir = repoNextDev();
  write(dir, `${HISTORIES}/0.1.0/agent-a@id-1.binpb`, 'a1 re-recorded');
  rmSync(join(dir, `${HISTORIES}/0.1.0/agent-b@id-2.binpb`));
  expect(checkFixtures(dir).problems).toEqual(
    expect.arrayContaining([
      `${HISTORIES}/0.1.0/agent-a@id-1.binpb: changed (${FROZEN_FIX})`,
      `${HISTORIES}/0.1.0/agent-b@id-2.binpb: deleted (${FROZEN_FIX})`,
      expect.stringMatching(/^test\/fixtures\/histories\/0\.1\.0\/agent-a@id-1\.binpb: differs from the content/),
      expect.stringMatching(/^test\/fixtures\/histories\/0\.1\.0\/agent-b@id-2\.binpb: removed after release 0\.1\.0/),
    ]),
  );
});

test('editing a frozen fixture together with its manifest, and lowering the version again, still fails', () => {
  const dir = repoNextDev();
  const frozenBy = setBy(dir, '0.2.0');
  write(dir, `${HISTORIES}/0.2.0/agent-a@id-4.binpb`, 'a2 re-recorded');
  setVersion(dir, '0.2.0'); // so that 0.2.0 looks current again
  updateManifests(dir);
  commit(dir, 're-record 0.2.0 after it was released');
  expect(checkFixtures(dir).problems).toEqual(
    expect.arrayContaining([
      `${HISTORIES}/0.2.0/SHA256SUMS: differs from the content it had when release 0.2.0 was frozen by commit ${frozenBy}; ${RESTORE}`,
      `${HISTORIES}/0.2.0/agent-a@id-4.binpb: differs from the content it had when release 0.2.0 was frozen by commit ${frozenBy}; ${RESTORE}`,
    ]),
  );
});

test('a frozen fixture re-recorded on a branch that began before the release and merged after it fails', () => {
  const dir = repo();
  setVersion(dir, '0.2.0-dev');
  record(dir, '0.2.0-dev', { 'agent-a@id-3.binpb': 'a2 draft' });
  git(dir, 'checkout', '-q', '-b', 'side');
  // On the branch, 0.2.0 is not released: recording into its folder there looks allowed.
  write(dir, `${HISTORIES}/0.2.0/agent-a@id-4.binpb`, 'a2 from a branch');
  commit(dir, 'record on a branch');
  git(dir, 'checkout', '-q', '-');
  release(dir, '0.2.0', { 'agent-a@id-4.binpb': 'a2' });
  const frozenBy = short(dir);
  git(dir, 'merge', '-q', '--no-edit', '-X', 'theirs', 'side');
  expect(checkFixtures(dir).problems).toEqual(
    expect.arrayContaining([
      `${HISTORIES}/0.2.0/agent-a@id-4.binpb: differs from the content it had when release 0.2.0 was frozen by commit ${frozenBy}; ${RESTORE}`,
    ]),
  );
});

test('a frozen release folder deleted whole fails', () => {
  const dir = repoNextDev();
  const frozenBy = setBy(dir, '0.2.0');
  rmSync(join(dir, `${CARRY}/0.2.0`), { recursive: true });
  commit(dir, 'drop the old carries');
  expect(checkFixtures(dir).problems).toEqual([
    `${CARRY}/0.2.0/SHA256SUMS: removed after release 0.2.0 was frozen by commit ${frozenBy}; ${RESTORE}`,
    `${CARRY}/0.2.0/agent-rollover.json: removed after release 0.2.0 was frozen by commit ${frozenBy}; ${RESTORE}`,
  ]);
});

test('misplaced folders, a development folder left after its release, and a version without its recordings are refused', () => {
  const dir = repoReleased();
  write(dir, `${HISTORIES}/0.2.0-dev/x@1.binpb`, 'x');
  write(dir, `${HISTORIES}/0.4.0/x@1.binpb`, 'x');
  write(dir, `${HISTORIES}/latest/x@1.binpb`, 'x');
  write(dir, `${HISTORIES}/x@1.binpb`, 'x');
  setVersion(dir, '0.3.0-dev');
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/x@1.binpb: outside a version folder (${HISTORIES}/<version>/)`,
    expect.stringMatching(new RegExp(`^${HISTORIES}/0.3.0-dev: none recorded for the current version; record them: `)),
    `${HISTORIES}/0.2.0-dev: a development folder of another version (its release records every scenario again into 0.2.0/ and deletes this one)`,
    `${HISTORIES}/0.4.0: newer than package.json's version 0.3.0-dev`,
    `${HISTORIES}/latest: not a version (MAJOR.MINOR.PATCH or MAJOR.MINOR.PATCH-dev)`,
    expect.stringMatching(new RegExp(`^${CARRY}/0.3.0-dev: none recorded for the current version`)),
  ]);
});

test('a shallow clone fails, saying how to get the history, even when its manifests look right', () => {
  const origin = repoNextDev();
  const clone = mkdtempSync(join(tmpdir(), 'cairn-fixtures-clone-'));
  dirs.push(clone);
  git(origin, 'clone', '-q', '--depth', '1', `file://${origin}`, clone);
  const shallow = 'shallow clone: the fixture gate needs the full history; run `git fetch --unshallow` (CI does)';
  expect(checkFixtures(clone).problems).toEqual([shallow]);
  // A frozen history replaced by a newer recording with its manifest line edited to match.
  write(clone, `${HISTORIES}/0.1.0/agent-a@id-1.binpb`, 'recorded by 0.2.0 code');
  const manifest = join(clone, `${HISTORIES}/0.1.0/SHA256SUMS`);
  const hash = createHash('sha256').update('recorded by 0.2.0 code').digest('hex');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^[0-9a-f]{64}(?= {2}agent-a@id-1)/m, hash));
  expect(checkFixtures(clone).problems).toEqual([shallow]);
  // With the history fetched, the replacement is found.
  git(clone, 'fetch', '-q', '--unshallow');
  expect(checkFixtures(clone).problems).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^test\/fixtures\/histories\/0\.1\.0\/agent-a@id-1\.binpb: differs from/),
    ]),
  );
});

test('without git the gate fails rather than trusting the manifests', () => {
  const dir = repoReleased();
  rmSync(join(dir, '.git'), { recursive: true });
  expect(checkFixtures(dir).problems).toEqual([expect.stringMatching(/^no git history here: /)]);
});

describe('retirement', () => {
  /** A released repository with one kept history deleted and listed in the retirement manifest. */
  function retire(entry: Record<string, unknown>, keep = false): string {
    const dir = repoNextDev();
    if (!keep) rmSync(join(dir, `${HISTORIES}/0.1.0/agent-b@id-2.binpb`));
    write(dir, 'test/fixtures/retired.json', JSON.stringify({ retired: [entry] }));
    commit(dir, 'retire agent-b');
    return dir;
  }
  // A patch the registry marks retired (it guarded a path no release shipped).
  const RETIRED = 'cairn-thread-title';
  const entry = {
    path: `${HISTORIES}/0.1.0/agent-b@id-2.binpb`,
    sha256: createHash('sha256').update('b1').digest('hex'),
    patches: [RETIRED],
    retiredIn: '0.3.0-dev',
    reason: 'its gate left the support window',
  };

  test('a retirement of the content kept, naming retired patches, is accepted', () => {
    expect(checkFixtures(retire(entry)).problems).toEqual([]);
  });

  test('a retirement that names a patch the registry does not mark retired is refused', () => {
    expect(checkFixtures(retire({ ...entry, patches: ['cairn-nested-budget'] })).problems).toEqual([
      'test/fixtures/retired.json: test/fixtures/histories/0.1.0/agent-b@id-2.binpb names patch cairn-nested-budget, which workflows/base/patches.ts does not mark retired',
    ]);
  });

  test('a retirement of other content, of a file still there, or a malformed manifest, is refused', () => {
    const other = retire({ ...entry, sha256: createHash('sha256').update('b2').digest('hex') });
    expect(checkFixtures(other).problems).toEqual([
      expect.stringMatching(
        /^test\/fixtures\/histories\/0\.1\.0\/agent-b@id-2\.binpb: removed, and test\/fixtures\/retired\.json retires other content/,
      ),
      expect.stringMatching(/^test\/fixtures\/retired\.json: .*agent-b@id-2\.binpb retires content never recorded/),
    ]);
    expect(checkFixtures(retire(entry, true)).problems).toEqual([
      'test/fixtures/retired.json: test/fixtures/histories/0.1.0/agent-b@id-2.binpb is retired but still in the working tree',
    ]);
    const malformed = retire({ ...entry, patches: [] });
    expect(checkFixtures(malformed).problems).toEqual(
      expect.arrayContaining([
        'test/fixtures/retired.json: retired.0.patches: name the retired patches the fixture guarded',
      ]),
    );
  });

  test('a superseded development recording may be retired too', () => {
    const dir = repoNextDev();
    rmSync(join(dir, `${HISTORIES}/0.3.0-dev/agent-c@id-5.binpb`));
    updateManifests(dir);
    const dev = {
      ...entry,
      path: `${HISTORIES}/0.3.0-dev/agent-c@id-5.binpb`,
      sha256: createHash('sha256').update('c3').digest('hex'),
      reason: 'superseded by a recording of the new path only',
    };
    write(dir, 'test/fixtures/retired.json', JSON.stringify({ retired: [dev] }));
    commit(dir, 'retire a development recording');
    expect(checkFixtures(dir).problems).toEqual([]);
  });
});
