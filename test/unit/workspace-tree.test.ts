/**
 * listWorkspaceTree (activities/tools/builtin/workspace-files.ts), what the files route lists:
 * regular files only, recursively, sorted; symbolic links (to files or folders, inside or out)
 * neither listed nor followed; a cap on files (then `truncated`) and on depth.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listWorkspaceTree } from '../../activities/tools/builtin/workspace-files';

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'workspace-tree-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

test('regular files below the folder with their sizes, sorted; links and other kinds left out', async () => {
  const outside = folder({ 'secret.txt': 'not yours' });
  const root = folder({ 'b.txt': 'bb', 'a/z.md': 'zzz', 'a/b/c.csv': '', 'inputs/brief.pdf': 'pdf!' });
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-to-file'));
  symlinkSync(outside, join(root, 'link-to-folder'));
  symlinkSync(join(root, 'b.txt'), join(root, 'a', 'link-inside'));
  execFileSync('mkfifo', [join(root, 'a-fifo')]);
  expect(await listWorkspaceTree(root, { limit: 100 })).toEqual({
    files: [
      { path: 'a/b/c.csv', size: 0 },
      { path: 'a/z.md', size: 3 },
      { path: 'b.txt', size: 2 },
      { path: 'inputs/brief.pdf', size: 4 },
    ],
    truncated: false,
  });
});

test('past the limit the listing says it is truncated; below the depth nothing is walked', async () => {
  const root = folder({ 'one.txt': '1', 'two.txt': '2', 'three.txt': '3', 'd1/d2/deep.txt': 'deep' });
  const capped = await listWorkspaceTree(root, { limit: 2 });
  expect(capped.files).toHaveLength(2);
  expect(capped.truncated).toBe(true);
  const shallow = await listWorkspaceTree(root, { limit: 100, maxDepth: 2 });
  expect(shallow.files.map((f) => f.path)).toEqual(['one.txt', 'three.txt', 'two.txt']);
});
