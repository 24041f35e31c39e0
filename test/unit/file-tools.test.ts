/**
 * The file tools stay inside the workspace (no `..`, absolute paths or symlinks out), work
 * inside it, and write_file writes once per idempotency key.
 */
import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolDefinition } from '../../activities/tools/define-tool';
import { listFilesTool } from '../../activities/tools/builtin/list-files';
import { readFileTool } from '../../activities/tools/builtin/read-file';
import { writeFileTool } from '../../activities/tools/builtin/write-file';

let workspace: string;
let outside: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'ws-'));
  outside = mkdtempSync(join(tmpdir(), 'outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'top secret');
  writeFileSync(join(workspace, 'notes.txt'), 'hello');
});

const run = (tool: ToolDefinition, args: unknown, key = 'agent/s1/c1') =>
  tool.run(tool.input.parse(args), {
    workspace,
    ledgerDir: `${workspace}.ledger`,
    idempotencyKey: key,
    signal: new AbortController().signal,
  });

test.each([
  ['..', '../secret.txt', /leaves the workspace/],
  ['a nested ..', 'sub/../../secret.txt', /leaves the workspace/],
  ['an absolute path', '/etc/passwd', /is absolute/],
])('read_file refuses %s', async (_name, path, message) => {
  await expect(run(readFileTool, { path })).rejects.toThrow(message);
});

test('a symlink that leads outside is refused for reading, writing and listing', async () => {
  symlinkSync(join(outside, 'secret.txt'), join(workspace, 'link.txt'));
  symlinkSync(outside, join(workspace, 'linkdir'));
  await expect(run(readFileTool, { path: 'link.txt' })).rejects.toThrow(
    /outside the workspace through a symbolic link/,
  );
  await expect(run(writeFileTool, { path: 'linkdir/new.txt', content: 'x' })).rejects.toThrow(/symbolic link/);
  await expect(run(listFilesTool, { path: 'linkdir' })).rejects.toThrow(/symbolic link/);
  expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
});

test('a symlink that stays inside the workspace is followed for reading, writing and listing', async () => {
  mkdirSync(join(workspace, 'docs'));
  symlinkSync('notes.txt', join(workspace, 'alias.txt'));
  symlinkSync('docs', join(workspace, 'docs-link'));
  expect(await run(readFileTool, { path: 'alias.txt' })).toBe('hello');
  await run(writeFileTool, { path: 'alias.txt', content: 'through the link' });
  expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('through the link');
  await run(writeFileTool, { path: 'docs-link/a.md', content: 'A' }, 'agent/s1/c2');
  expect(await run(listFilesTool, { path: 'docs-link' })).toBe('a.md');
  expect(readFileSync(join(workspace, 'docs', 'a.md'), 'utf8')).toBe('A');
});

test('a dangling symlink cannot be written through', async () => {
  symlinkSync(join(outside, 'not-yet.txt'), join(workspace, 'dangling.txt'));
  await expect(run(writeFileTool, { path: 'dangling.txt', content: 'x' })).rejects.toThrow(/symbolic link to nothing/);
  expect(() => statSync(join(outside, 'not-yet.txt'))).toThrow();
});

test('reads, writes and lists inside the workspace', async () => {
  expect(await run(readFileTool, { path: 'notes.txt' })).toBe('hello');
  expect(await run(writeFileTool, { path: 'out/report.md', content: '# Report' })).toBe(
    'wrote 8 bytes to out/report.md',
  );
  expect(readFileSync(join(workspace, 'out/report.md'), 'utf8')).toBe('# Report');
  mkdirSync(join(workspace, 'empty'));
  expect(await run(listFilesTool, {})).toBe(['empty/', 'notes.txt', 'out/'].join('\n'));
  expect(await run(listFilesTool, { path: 'empty' })).toBe('(empty)');
});

test('write_file with the same idempotency key writes once and returns the first result', async () => {
  const first = await run(writeFileTool, { path: 'once.txt', content: 'first' }, 'agent/s1/call-7');
  expect(readFileSync(join(workspace, 'once.txt'), 'utf8')).toBe('first');
  writeFileSync(join(workspace, 'once.txt'), 'changed by someone else');
  const again = await run(writeFileTool, { path: 'once.txt', content: 'first' }, 'agent/s1/call-7');
  expect(again).toBe(first);
  expect(readFileSync(join(workspace, 'once.txt'), 'utf8')).toBe('changed by someone else');
  // Another call (another key) does write.
  await run(writeFileTool, { path: 'once.txt', content: 'second' }, 'agent/s1/call-8');
  expect(readFileSync(join(workspace, 'once.txt'), 'utf8')).toBe('second');
});
