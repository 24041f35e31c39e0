/**
 * The idempotency ledger lives outside the workspace, where the file tools cannot read or
 * forge it; and the file tools' errors name paths relative to the workspace only.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { listFilesTool } from '../../activities/tools/builtin/list-files';
import { readFileTool } from '../../activities/tools/builtin/read-file';
import { writeFileTool } from '../../activities/tools/builtin/write-file';
import type { ToolDefinition } from '../../activities/tools/define-tool';
import { toolText } from '../../activities/tools/define-tool';

let workspace: string;
let ledgerDir: string;

beforeEach(() => {
  workspace = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'workspace');
  ledgerDir = `${workspace}.ledger`;
  mkdirSync(workspace);
});

const run = (tool: ToolDefinition, args: unknown, key = 'agent-1/s1/c1') =>
  tool
    .run(tool.input.parse(args), { workspace, ledgerDir, idempotencyKey: key, signal: new AbortController().signal })
    .then(toolText);

/** Every file under `folder` on disk, hidden ones included, with its content. */
function everyFile(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path.slice(folder.length + 1)] = readFileSync(path, 'utf8');
    }
  }
  return files;
}

test('write_file records its key outside the workspace: nothing in the workspace but the file written', async () => {
  await run(writeFileTool, { path: 'a.txt', content: 'A' }, 'agent-1/s1/c1');
  expect(everyFile(workspace)).toEqual({ 'a.txt': 'A' });
  expect(JSON.stringify(everyFile(ledgerDir))).toContain('agent-1/s1/c1');
  // What the model can see agrees.
  expect(await run(listFilesTool, {})).toBe('a.txt');
  // ...and the ledger is not reachable by a relative path either.
  const entry = `../${basename(ledgerDir)}/${Object.keys(everyFile(ledgerDir))[0]}`;
  await expect(run(readFileTool, { path: entry })).rejects.toThrow(/leaves the workspace/);
  await expect(run(writeFileTool, { path: entry, content: '{}' }, 'agent-1/s1/c2')).rejects.toThrow(
    /leaves the workspace/,
  );
});

test('a ledger entry forged where the ledger used to be does not turn a write into a no-op', async () => {
  const key = 'agent-1/s2/c9';
  const hash = createHash('sha256').update(key).digest('hex');
  const forged = JSON.stringify({ key, intent: 'x', result: 'wrote 5 bytes to b.txt' });
  await run(writeFileTool, { path: `.cairn/ledger/${hash}.json`, content: forged }, 'agent-1/s2/c8');
  expect(await run(writeFileTool, { path: 'b.txt', content: 'real!' }, key)).toBe('wrote 5 bytes to b.txt');
  expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('real!');
});

test('no file tool error shows where the workspace or the ledger is', async () => {
  writeFileSync(join(workspace, 'notes.txt'), 'hello');
  mkdirSync(join(workspace, 'folder'));
  symlinkSync(join(workspace, '..', 'nowhere.txt'), join(workspace, 'dangling.txt'));
  symlinkSync(join(workspace, '..'), join(workspace, 'out'));
  const calls: [ToolDefinition, unknown][] = [
    [readFileTool, { path: 'missing.txt' }],
    [readFileTool, { path: 'folder' }],
    [readFileTool, { path: 'notes.txt/inner' }],
    [readFileTool, { path: 'dangling.txt' }],
    [readFileTool, { path: 'out/nowhere.txt' }],
    [readFileTool, { path: '../x' }],
    [listFilesTool, { path: 'notes.txt' }],
    [listFilesTool, { path: 'missing' }],
    [listFilesTool, { path: 'out' }],
    [writeFileTool, { path: 'folder', content: 'x' }],
    [writeFileTool, { path: 'notes.txt/inner.txt', content: 'x' }],
    [writeFileTool, { path: 'dangling.txt', content: 'x' }],
    [writeFileTool, { path: 'out/escape.txt', content: 'x' }],
    [writeFileTool, { path: '.', content: 'x' }],
  ];
  const hidden = [workspace, realpathSync(workspace), ledgerDir];
  for (const [index, [tool, args]] of calls.entries()) {
    const { failed, message } = await run(tool, args, `agent-1/s3/c${index}`).then(
      (output) => ({ failed: false, message: output }),
      (err: unknown) => ({ failed: true, message: err instanceof Error ? err.message : String(err) }),
    );
    const shown = hidden.filter((path) => message.includes(path));
    expect({ args, message, failed, shown }).toEqual({ args, message, failed: true, shown: [] });
  }
  expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('hello');
});
