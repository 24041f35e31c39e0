/**
 * The fixture gate (scripts/check-fixtures.ts) on throwaway git repositories: the current
 * release's fixtures may be recorded again, an earlier release's may not — not even with its
 * manifest edited in the same commit — and a shallow clone still checks the manifests.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

test('a repository whose releases are intact passes', () => {
  expect(checkFixtures(repo())).toEqual({ problems: [], notes: [] });
  expect(checkFixtures(repoAtSecondRelease())).toEqual({ problems: [], notes: [] });
});

test('the current release may be recorded again: new files and changed ones, with its manifest updated', () => {
  const dir = repo();
  write(dir, `${HISTORIES}/0.1.0/agent-a@id-1.binpb`, 'a1 re-recorded');
  write(dir, `${HISTORIES}/0.1.0/agent-c@id-4.binpb`, 'c1');
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/0.1.0/agent-a@id-1.binpb: changed (run \`npx tsx scripts/check-fixtures.ts --update\` after recording)`,
    `${HISTORIES}/0.1.0/agent-c@id-4.binpb: added, not in SHA256SUMS (run \`npx tsx scripts/check-fixtures.ts --update\` after recording)`,
  ]);
  updateManifests(dir);
  commit(dir, 're-record 0.1.0');
  expect(checkFixtures(dir).problems).toEqual([]);
});

test('a modified or deleted fixture of an earlier release fails the manifest check', () => {
  const dir = repoAtSecondRelease();
  write(dir, `${HISTORIES}/0.1.0/agent-a@id-1.binpb`, 'a1 re-recorded');
  rmSync(join(dir, `${HISTORIES}/0.1.0/agent-b@id-2.binpb`));
  rmSync(join(dir, `${CARRY}/0.1.0/agent-rollover.json`));
  expect(checkFixtures(dir).problems).toEqual([
    `${HISTORIES}/0.1.0/agent-a@id-1.binpb: changed (release 0.1.0 is frozen: restore its files from git, never re-record them)`,
    `${HISTORIES}/0.1.0/agent-b@id-2.binpb: deleted (release 0.1.0 is frozen: restore its files from git, never re-record them)`,
    `${CARRY}/0.1.0/agent-rollover.json: deleted (release 0.1.0 is frozen: restore its files from git, never re-record them)`,
  ]);
});

test('editing a frozen fixture together with its manifest in one commit fails the history check', () => {
  const dir = repoAtSecondRelease();
  write(dir, `${HISTORIES}/0.1.0/agent-a@id-1.binpb`, 'a1 re-recorded');
  rmSync(join(dir, `${HISTORIES}/0.1.0/agent-b@id-2.binpb`));
  // The manifest made to match, as a hurried re-record would do.
  write(dir, `${HISTORIES}/0.1.0/SHA256SUMS`, '');
  setVersion(dir, '0.1.0'); // and the version lowered so that 0.1.0 looks current again
  updateManifests(dir);
  commit(dir, 're-record 0.1.0 after it was released');
  const head = git(dir, 'rev-parse', 'HEAD').slice(0, 10);
  const { problems } = checkFixtures(dir);
  expect(problems).toEqual(
    expect.arrayContaining([
      `${HISTORIES}/0.1.0/SHA256SUMS: modified by commit ${head}, after release 0.1.0 was frozen`,
      `${HISTORIES}/0.1.0/agent-a@id-1.binpb: modified by commit ${head}, after release 0.1.0 was frozen`,
      `${HISTORIES}/0.1.0/agent-b@id-2.binpb: deleted by commit ${head}, after release 0.1.0 was frozen`,
    ]),
  );
});

test('a frozen release folder deleted whole is still seen in the history', () => {
  const dir = repoAtSecondRelease();
  rmSync(join(dir, `${CARRY}/0.1.0`), { recursive: true });
  commit(dir, 'drop the old carries');
  expect(checkFixtures(dir).problems).toEqual([
    expect.stringMatching(
      new RegExp(`^${CARRY}/0.1.0/SHA256SUMS: deleted by commit [0-9a-f]{10}, after release 0.1.0 was frozen$`),
    ),
    expect.stringMatching(new RegExp(`^${CARRY}/0.1.0/agent-rollover.json: deleted by commit [0-9a-f]{10}, after`)),
  ]);
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

test('on a shallow clone the history check is skipped with a note; the manifests are still checked', () => {
  const origin = repoAtSecondRelease();
  const clone = mkdtempSync(join(tmpdir(), 'cairn-fixtures-clone-'));
  dirs.push(clone);
  git(origin, 'clone', '-q', '--depth', '1', `file://${origin}`, clone);
  expect(checkFixtures(clone)).toEqual({
    problems: [],
    notes: ['shallow clone: the git history check was skipped (clone with full history to run it)'],
  });
  write(clone, `${HISTORIES}/0.1.0/agent-a@id-1.binpb`, 'changed');
  expect(checkFixtures(clone).problems).toEqual([
    `${HISTORIES}/0.1.0/agent-a@id-1.binpb: changed (release 0.1.0 is frozen: restore its files from git, never re-record them)`,
  ]);
});
