/**
 * User modules import from Cairn's one public module (cairn.ts): it exports what they use, the
 * examples and the test fixtures that stand for user modules import from it, and the docs'
 * examples do too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as cairn from '../../cairn';

const ROOT = join(__dirname, '..', '..');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ext) : ext.test(name) ? [path] : [];
  });
}

test('the public module exports what user modules use', () => {
  expect(typeof cairn.defineGraph).toBe('function');
  expect(typeof cairn.defineTool).toBe('function');
  expect(typeof cairn.GraphDefinitionError).toBe('function');
});

test('examples, user-module fixtures and docs import define* from the public module only', () => {
  const userModules = [
    ...files(join(ROOT, 'examples'), /\.ts$/),
    ...files(join(ROOT, 'test', 'fixtures', 'user-tools'), /\.ts$/),
    ...files(join(ROOT, 'test', 'fixtures', 'graphs'), /\.ts$/),
    ...files(join(ROOT, 'docs'), /\.md$/),
    join(ROOT, 'README.md'),
  ];
  const inner = /from '[^']*(client\/graphs\/define-graph|activities\/tools\/define-tool)'/;
  const offenders = userModules.filter((f) => inner.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
  expect(offenders).toEqual([]);
  const users = userModules.filter((f) => /\bdefine(Graph|Tool)\(/.test(readFileSync(f, 'utf8')) && f.endsWith('.ts'));
  expect(users.length).toBeGreaterThan(0);
  for (const f of users) expect(readFileSync(f, 'utf8')).toMatch(/from '(\.\.?\/)+cairn'/);
});
