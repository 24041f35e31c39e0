/**
 * The preview of a write awaiting approval: the line diff (activities/tools/line-diff.ts) equals
 * GNU `diff -u`'s hunks on edits with one best alignment, and applying it to the old text always
 * gives the new one; `previewCall` (activities/tools/preview-call.ts) reads the current file
 * inside the workspace only — new, unchanged, changed (cut when long), and nothing for a path
 * outside, a folder, or another tool.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unifiedDiff } from '../../activities/tools/line-diff';
import { previewCall } from '../../activities/tools/preview-call';
import { MAX_PREVIEW_CHARS } from '../../workflows/model/tools/approval-preview';

let dir = '';
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'approval-preview-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n') + '\n';

/** GNU diff's unified hunks of `before` → `after` (its two header lines left out). */
function gnuHunks(before: string, after: string): string {
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  try {
    return execFileSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
  } catch (err) {
    // diff exits 1 when the files differ: its output is what we want.
    return ((err as { stdout?: string }).stdout ?? '').split('\n').slice(2).join('\n').trimEnd();
  }
}

/** Applies a unified diff's hunks to `before`. */
function applyDiff(before: string, diff: string): string {
  const old = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let at = 0;
  for (const line of diff.split('\n').slice(2)) {
    const hunk = /^@@ -(\d+),(\d+) /.exec(line);
    if (hunk) {
      const start = Number(hunk[2]) === 0 ? Number(hunk[1]) : Number(hunk[1]) - 1;
      out.push(...old.slice(at, start));
      at = start;
    } else if (line.startsWith(' ') || line.startsWith('-')) {
      expect(old[at]).toBe(line.slice(1));
      if (line.startsWith(' ')) out.push(line.slice(1));
      at++;
    } else if (line.startsWith('+')) out.push(line.slice(1));
  }
  out.push(...old.slice(at));
  return out.length ? `${out.join('\n')}\n` : '';
}

const edits: [string, string, string][] = [
  ['one line changed in the middle', lines(20), lines(20).replace('line 10\n', 'line ten\n')],
  ['lines added at the end', lines(5), lines(8)],
  ['lines removed at the start', lines(12), lines(12).split('\n').slice(4).join('\n')],
  ['two changes far apart', lines(40), lines(40).replace('line 3\n', 'LINE 3\n').replace('line 37\n', 'LINE 37\n')],
  ['two changes close together', lines(20), lines(20).replace('line 8\n', 'x\n').replace('line 12\n', 'y\n')],
];

test.each(edits)('%s: the same hunks as diff -u', (_name, before, after) => {
  const diff = unifiedDiff(before, after, 'f.txt');
  expect(diff.split('\n').slice(0, 2)).toEqual(['--- a/f.txt', '+++ b/f.txt']);
  expect(diff.split('\n').slice(2).join('\n')).toBe(gnuHunks(before, after));
});

test('applying the diff gives the new text, whatever the edit', () => {
  const cases: [string, string][] = [
    ...edits.map(([, a, b]): [string, string] => [a, b]),
    ['', lines(3)],
    [lines(3), ''],
    ['a\nb\nc\nd\ne\n', 'e\nd\nc\nb\na\n'],
    [lines(30, 'x'), lines(30, 'y')],
  ];
  for (const [before, after] of cases) expect(applyDiff(before, unifiedDiff(before, after, 'f'))).toBe(after);
  expect(unifiedDiff('same\n', 'same\n', 'f')).toBe('');
});

test('previewCall: a new file, an unchanged one, a changed one (cut when long), and none it cannot tell', async () => {
  const workspace = join(dir, 'workspace');
  mkdirSync(join(workspace, 'sub'), { recursive: true });
  writeFileSync(join(workspace, 'notes.md'), 'line one\nold line\n');
  writeFileSync(join(dir, 'secret.txt'), 'outside\n');
  symlinkSync(join(dir, 'secret.txt'), join(workspace, 'link.txt'));
  const write = (path: string, content: string) =>
    previewCall(workspace, { tool: 'write_file', arguments: { path, content } });

  expect(await write('fresh.md', 'hello\n')).toEqual({ path: 'fresh.md', change: 'new' });
  expect(await write('notes.md', 'line one\nold line\n')).toEqual({ path: 'notes.md', change: 'same' });
  const changed = await write('notes.md', 'line one\nnew line\n');
  expect(changed).toEqual({
    path: 'notes.md',
    change: 'diff',
    text: '--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n line one\n-old line\n+new line',
  });
  const long = await write('notes.md', lines(2000));
  expect(long?.cut).toBe(true);
  expect(long?.text).toHaveLength(MAX_PREVIEW_CHARS);

  // Outside the workspace (by path or by symlink), a folder, another tool, arguments of another shape: no preview.
  expect(await write('../secret.txt', 'x')).toBeNull();
  expect(await write('link.txt', 'x')).toBeNull();
  expect(await write('sub', 'x')).toBeNull();
  expect(await previewCall(workspace, { tool: 'read_file', arguments: { path: 'notes.md' } })).toBeNull();
  expect(await previewCall(workspace, { tool: 'write_file', arguments: { path: 'notes.md' } })).toBeNull();
});
