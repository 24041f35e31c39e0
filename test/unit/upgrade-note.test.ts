/**
 * The worker's upgrade note names the release commit the release rule starts from, and the
 * operations section it points to exists and says the same.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAST_RELEASE_COMMIT, UPGRADE_NOTE } from '../../worker/upgrade-note';

const ROOT = join(__dirname, '..', '..');

test('the note names the commit that set version 0.3.0', () => {
  const version = execFileSync('git', ['show', `${LAST_RELEASE_COMMIT}:package.json`], { cwd: ROOT, encoding: 'utf8' });
  expect(JSON.parse(version)).toMatchObject({ version: '0.3.0' });
  const parent = execFileSync('git', ['show', `${LAST_RELEASE_COMMIT}^:package.json`], { cwd: ROOT, encoding: 'utf8' });
  expect(JSON.parse(parent)).toMatchObject({ version: '0.2.0' });
  expect(UPGRADE_NOTE).toContain(LAST_RELEASE_COMMIT);
});

test('the section it points to exists and names the same commit', () => {
  const ops = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const anchor = /docs\/operations\.md#([a-z-]+)/.exec(UPGRADE_NOTE)?.[1];
  expect(anchor).toBe('upgrading-from-a-development-build');
  const section = ops.split('\n### ').find((s) => s.startsWith('Upgrading from a development build'));
  expect(section).toContain(LAST_RELEASE_COMMIT);
});
