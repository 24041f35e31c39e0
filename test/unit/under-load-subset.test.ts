/**
 * `npm run test:under-load` runs the files test/under-load-subset.txt names
 * (scripts/test-under-load.sh): each must exist and be one of `npm test`'s integration files, so a
 * renamed or moved file fails here, in `npm test`, before CI's under-load step would.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The paths the subset names: one a line, `#` starts a comment. */
function subset(): string[] {
  return readFileSync(join(ROOT, 'test', 'under-load-subset.txt'), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
}

test('the under-load subset names existing integration test files, each once', () => {
  const files = subset();
  expect(files.length).toBeGreaterThan(0);
  expect(new Set(files).size).toBe(files.length);
  for (const file of files) {
    expect(file).toMatch(/^test\/(integration|replay)\/.+\.test\.ts$/);
    expect([file, existsSync(join(ROOT, file))]).toEqual([file, true]);
  }
});
