/**
 * Workflow code stays in small files that say what they are: no file under workflows/ is over
 * 250 lines. A file that grows past it is split by responsibility, as the desk, the step's tool
 * calls and the tracing interceptors were — never alphabetically, and never by squeezing its
 * comments (CONTRIBUTING.md, "File size by role").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const WORKFLOWS = join(__dirname, '..', '..', 'workflows');
const MAX_LINES = 250;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

test(`no file under workflows/ is over ${MAX_LINES} lines (split by responsibility: CONTRIBUTING.md)`, () => {
  const long = files(WORKFLOWS)
    .map((path) => ({
      path: relative(WORKFLOWS, path),
      lines: readFileSync(path, 'utf8').trimEnd().split('\n').length,
    }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ path, lines }) => `${path}: ${lines} lines`);
  // Each entry is a file to split by responsibility (CONTRIBUTING.md#file-size-by-role).
  expect(long).toEqual([]);
});
