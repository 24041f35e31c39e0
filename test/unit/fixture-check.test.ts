/**
 * The fixture gate (scripts/check-fixtures.ts) on throwaway git repositories: kept fixtures are
 * append-only from the moment they are committed, an earlier release's folder holds exactly what
 * it held when it was frozen, and no route through git gets past it — an edit made with its
 * manifest, a lowered version, a branch that began before the release and merged after it, a
 * shallow clone with its manifest edited, a rewritten recording of the current release. The only
 * accepted removal is a retirement recorded in test/fixtures/retired.json.
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

/** Records a release's fixtures the way a release does: files, then `--update`, then a commit. */
function record(dir: string, release: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) write(dir, `${HISTORIES}/${release}/${name}`, text);
  write(dir, `${CARRY}/${release}/agent-rollover.json`, `{"release":"${release}"}`);
  updateManifests(dir);
  commit(dir, `record ${release}`);
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A repository at release 0.1.0 with its first generation recorded. */
function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-fixtures-'));
  dirs.push(dir);
  git(dir, 'init', '-q');
  setVersion(dir, '0.1.0');
  record(dir, '0.1.0', { 'agent-a@id-1.binpb': 'a1', 'agent-b@id-2.binpb': 'b1' });
  return dir;
}

/** A repository whose 0.1.0 is frozen: the version moved to 0.2.0, which recorded its own set. */
function repoAtSecondRelease(): string {
  const dir = repo();
  setVersion(dir, '0.2.0');
  record(dir, '0.2.0', { 'agent-a@id-3.binpb': 'a2' });
  return dir;
}

const KEPT = 'kept fixtures are never changed or removed: restore it from git (`git checkout <commit> -- <path>`)';
const FROZEN_FIX = 'release 0.1.0 is frozen: restore its files from git, never re-record them';
const short = (dir: string, rev = 'HEAD') => git(dir, 'rev-parse', rev).trim().slice(0, 10);

test('a repository whose releases are intact passes, and the current release may grow', () => {
  expect(checkFixtures(repo())).toEqual({ problems: [], notes: [] });
  const dir = repoAtSecondRelease();
  expect(checkFixtures(dir)).toEqual({ problems: [], notes: [] });
  write(dir, `${HISTORIES}/0.2.0/agent-c@id-4.binpb`, 'c2');
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/0.2.0/agent-c@id-4.binpb: added, not in SHA256SUMS (run \`npx tsx scripts/check-fixtures.ts --update\` after recording)`,
  ]);
  updateManifests(dir);
  commit(dir, 'record a new scenario of 0.2.0');
  expect(checkFixtures(dir).problems).toEqual([]);
});

test('a committed recording of the current release cannot be rewritten, not even with its manifest', () => {
  const dir = repoAtSecondRelease();
  const recordedBy = short(dir);
  write(dir, `${HISTORIES}/0.2.0/agent-a@id-3.binpb`, 'a2 re-recorded');
  updateManifests(dir);
  commit(dir, 're-record a 0.2.0 scenario');
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/0.2.0/agent-a@id-3.binpb: changed since commit ${recordedBy} recorded it; ${KEPT}`,
  ]);
});

test('a committed recording of the current release cannot be replaced under another name', () => {
  const dir = repoAtSecondRelease();
  const recordedBy = short(dir);
  rmSync(join(dir, `${HISTORIES}/0.2.0/agent-a@id-3.binpb`));
  write(dir, `${HISTORIES}/0.2.0/agent-a@id-9.binpb`, 'a2 again');
  updateManifests(dir);
  commit(dir, 'replace a 0.2.0 scenario');
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/0.2.0/agent-a@id-3.binpb: deleted (recorded by commit ${recordedBy}); ${KEPT}`,
  ]);
});

test('a modified or deleted fixture of an earlier release fails, in the working tree already', () => {
  const dir = repoAtSecondRelease();
  write(dir, `${HISTORIES}/0.1.0/agent-a@id-1.binpb`, 'a1 re-recorded');
  rmSync(join(dir, `${HISTORIES}/0.1.0/agent-b@id-2.binpb`));
  const { problems } = checkFixtures(dir);
  expect(problems).toEqual(
    expect.arrayContaining([
      `${HISTORIES}/0.1.0/agent-a@id-1.binpb: changed (${FROZEN_FIX})`,
      `${HISTORIES}/0.1.0/agent-b@id-2.binpb: deleted (${FROZEN_FIX})`,
      expect.stringMatching(/^test\/fixtures\/histories\/0\.1\.0\/agent-a@id-1\.binpb: changed since commit/),
      expect.stringMatching(/^test\/fixtures\/histories\/0\.1\.0\/agent-b@id-2\.binpb: deleted \(recorded by commit/),
    ]),
  );
});

test('editing a frozen fixture together with its manifest, and lowering the version again, still fails', () => {
  const dir = repoAtSecondRelease();
  const frozenBy = short(dir);
  write(dir, `${HISTORIES}/0.1.0/agent-a@id-1.binpb`, 'a1 re-recorded');
  rmSync(join(dir, `${HISTORIES}/0.1.0/agent-b@id-2.binpb`));
  setVersion(dir, '0.1.0'); // so that 0.1.0 looks current again
  updateManifests(dir);
  commit(dir, 're-record 0.1.0 after it was released');
  const { problems } = checkFixtures(dir);
  expect(problems).toEqual(
    expect.arrayContaining([
      `${HISTORIES}/0.1.0/SHA256SUMS: differs from the content it had when release 0.1.0 was frozen by commit ${frozenBy}`,
      `${HISTORIES}/0.1.0/agent-a@id-1.binpb: differs from the content it had when release 0.1.0 was frozen by commit ${frozenBy}`,
      `${HISTORIES}/0.1.0/agent-b@id-2.binpb: removed after release 0.1.0 was frozen by commit ${frozenBy}`,
    ]),
  );
});

test('a file added to a frozen release, manifest and all, fails', () => {
  const dir = repoAtSecondRelease();
  const frozenBy = short(dir);
  write(dir, `${HISTORIES}/0.1.0/agent-late@id-7.binpb`, 'recorded by 0.2.0 code');
  // The frozen manifest rewritten by hand to match.
  const manifest = join(dir, `${HISTORIES}/0.1.0/SHA256SUMS`);
  const hash = createHash('sha256').update('recorded by 0.2.0 code').digest('hex');
  writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}${hash}  agent-late@id-7.binpb\n`);
  commit(dir, 'add a late 0.1.0 recording');
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/0.1.0/agent-late@id-7.binpb: added after release 0.1.0 was frozen by commit ${frozenBy}`,
    `${HISTORIES}/0.1.0/SHA256SUMS: differs from the content it had when release 0.1.0 was frozen by commit ${frozenBy}`,
  ]);
});

test('a frozen fixture re-recorded on a branch that began before the release and merged after it fails', () => {
  const dir = repo();
  git(dir, 'checkout', '-q', '-b', 'side');
  // On the branch, 0.1.0 is still current: re-recording it there looks allowed.
  write(dir, `${HISTORIES}/0.1.0/agent-a@id-1.binpb`, 'a1 re-recorded on a branch');
  updateManifests(dir);
  commit(dir, 're-record on a branch');
  git(dir, 'checkout', '-q', '-');
  setVersion(dir, '0.2.0');
  record(dir, '0.2.0', { 'agent-a@id-3.binpb': 'a2' });
  const frozenBy = short(dir);
  git(dir, 'merge', '-q', '--no-edit', 'side');
  const { problems } = checkFixtures(dir);
  expect(problems).toEqual(
    expect.arrayContaining([
      `${HISTORIES}/0.1.0/agent-a@id-1.binpb: differs from the content it had when release 0.1.0 was frozen by commit ${frozenBy}`,
      expect.stringMatching(
        /^test\/fixtures\/histories\/0\.1\.0\/agent-a@id-1\.binpb: changed since commit [0-9a-f]{10} recorded it/,
      ),
    ]),
  );
});

test('a frozen release folder deleted whole fails', () => {
  const dir = repoAtSecondRelease();
  const frozenBy = short(dir);
  rmSync(join(dir, `${CARRY}/0.1.0`), { recursive: true });
  commit(dir, 'drop the old carries');
  expect(checkFixtures(dir).problems).toEqual(
    expect.arrayContaining([
      `${CARRY}/0.1.0/agent-rollover.json: removed after release 0.1.0 was frozen by commit ${frozenBy}`,
      expect.stringMatching(/^test\/fixtures\/carry\/0\.1\.0\/agent-rollover\.json: deleted \(recorded by commit/),
    ]),
  );
});

test('misplaced folders and a release without its own recordings are refused', () => {
  const dir = repo();
  write(dir, `${HISTORIES}/0.3.0/x@1.binpb`, 'x');
  write(dir, `${HISTORIES}/latest/x@1.binpb`, 'x');
  write(dir, `${HISTORIES}/x@1.binpb`, 'x');
  setVersion(dir, '0.2.0');
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/x@1.binpb: outside a release folder (${HISTORIES}/<release>/)`,
    expect.stringMatching(new RegExp(`^${HISTORIES}/0.2.0: none recorded for the current release; record them: `)),
    `${HISTORIES}/0.3.0: newer than package.json's version 0.2.0`,
    `${HISTORIES}/latest: not a release (MAJOR.MINOR.PATCH)`,
    expect.stringMatching(new RegExp(`^${CARRY}/0.2.0: none recorded for the current release`)),
  ]);
});

test('a shallow clone fails, saying how to get the history, even when its manifests look right', () => {
  const origin = repoAtSecondRelease();
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
  const dir = repoAtSecondRelease();
  rmSync(join(dir, '.git'), { recursive: true });
  expect(checkFixtures(dir).problems).toEqual([expect.stringMatching(/^no git history here: /)]);
});

describe('retirement', () => {
  /** 0.1.0 frozen, one of its histories deleted and listed in the retirement manifest. */
  function retire(entry: Record<string, unknown>): string {
    const dir = repoAtSecondRelease();
    rmSync(join(dir, `${HISTORIES}/0.1.0/agent-b@id-2.binpb`));
    write(dir, 'test/fixtures/retired.json', JSON.stringify({ retired: [entry] }));
    commit(dir, 'retire agent-b');
    return dir;
  }
  const entry = {
    path: `${HISTORIES}/0.1.0/agent-b@id-2.binpb`,
    sha256: createHash('sha256').update('b1').digest('hex'),
    patches: ['cairn-nested-budget'],
    retiredIn: '0.2.0',
    reason: 'its gate left the support window',
  };

  test('a retirement that names a patch the registry does not mark retired is refused', () => {
    expect(checkFixtures(retire(entry)).problems).toEqual([
      'test/fixtures/retired.json: test/fixtures/histories/0.1.0/agent-b@id-2.binpb names patch cairn-nested-budget, which workflows/patches.ts does not mark retired',
    ]);
  });

  test('a retirement of other content, or a malformed manifest, is refused', () => {
    const other = retire({ ...entry, sha256: createHash('sha256').update('b2').digest('hex') });
    expect(checkFixtures(other).problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^test\/fixtures\/histories\/0\.1\.0\/agent-b@id-2\.binpb: deleted, and test\/fixtures\/retired\.json retires other content/,
        ),
      ]),
    );
    const malformed = retire({ ...entry, patches: [] });
    expect(checkFixtures(malformed).problems).toEqual(
      expect.arrayContaining([
        'test/fixtures/retired.json: retired.0.patches: name the retired patches the fixture guarded',
      ]),
    );
  });
});
