/**
 * A folder of the workspace swapped for a symlink to outside while a file tool is working must
 * not lead the tool outside. The swap is tried before every file-system call the tool makes
 * (each one a point where a concurrent process could act), so every interleaving of "check"
 * and "use" is covered deterministically.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { promises as fsPromises } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listFilesTool } from '../../activities/tools/builtin/list-files';
import { readFileTool } from '../../activities/tools/builtin/read-file';
import { writeFileTool } from '../../activities/tools/builtin/write-file';
import { readWorkspaceFile, writeWorkspaceFile } from '../../activities/tools/builtin/workspace-files';
import type { ToolDefinition } from '../../activities/tools/define-tool';
import { toolText } from '../../activities/tools/define-tool';

/** A workspace with the folder `sub`, and a folder outside it. */
interface Scene {
  workspace: string;
  outside: string;
}

/** File names and contents in `sub` and outside. */
interface Fill {
  sub: Record<string, string>;
  outside: Record<string, string>;
}

/** Makes a fresh scene with the files of `fill`. */
function scene(fill: Fill): Scene {
  const base = mkdtempSync(join(tmpdir(), 'race-'));
  const workspace = join(base, 'workspace');
  const outside = join(base, 'outside');
  mkdirSync(join(workspace, 'sub'), { recursive: true });
  mkdirSync(outside);
  for (const [name, content] of Object.entries(fill.sub)) writeFileSync(join(workspace, 'sub', name), content);
  for (const [name, content] of Object.entries(fill.outside)) writeFileSync(join(outside, name), content);
  return { workspace, outside };
}

/** The same file name in `sub` and outside. */
const sameName = (name: string): Fill => ({ sub: { [name]: 'inside' }, outside: { [name]: 'OUTSIDE CONTENT' } });

/** What a concurrent process does: `sub` moves away and a symlink to outside takes its place. */
function swap({ workspace, outside }: Scene): void {
  renameSync(join(workspace, 'sub'), join(workspace, 'sub-moved'));
  symlinkSync(outside, join(workspace, 'sub'));
}

/**
 * Runs `body`, calling `before(n)` ahead of the n-th call (from 0) to `node:fs/promises`, and
 * returns how many calls there were. The functions are wrapped in place, so the module under
 * test sees them; the originals come back afterwards.
 */
async function countingFsCalls(before: (n: number) => void, body: () => Promise<unknown>): Promise<number> {
  const module = fsPromises as unknown as Record<string, unknown>;
  const originals = Object.entries(module).filter(
    (entry): entry is [string, (...args: unknown[]) => unknown] => typeof entry[1] === 'function',
  );
  let calls = 0;
  for (const [name, original] of originals) {
    module[name] = (...args: unknown[]) => {
      before(calls++);
      return original(...args);
    };
  }
  try {
    await body().catch(() => undefined);
  } finally {
    for (const [name, original] of originals) module[name] = original;
  }
  return calls;
}

type Outcome = { ok: true; value: string } | { ok: false; error: string };

/**
 * Runs `operation` in a fresh scene once per file-system call it makes, with the swap done just
 * before that call, and hands each outcome and scene to `check`.
 */
async function atEverySwapPoint(
  fill: Fill,
  operation: (s: Scene) => Promise<string>,
  check: (outcome: Outcome, s: Scene) => void,
): Promise<void> {
  const total = await countingFsCalls(
    () => undefined,
    () => operation(scene(fill)),
  );
  expect(total).toBeGreaterThan(2);
  for (let point = 0; point < total; point++) {
    const s = scene(fill);
    let swapped = false;
    let outcome: Outcome = { ok: false, error: 'not run' };
    await countingFsCalls(
      (n) => {
        if (n !== point) return;
        swap(s);
        swapped = true;
      },
      async () => {
        outcome = await operation(s).then(
          (value): Outcome => ({ ok: true, value }),
          (err: unknown): Outcome => ({ ok: false, error: err instanceof Error ? err.message : String(err) }),
        );
      },
    );
    expect(swapped).toBe(true);
    check(outcome, s);
  }
}

const run = (tool: ToolDefinition, args: unknown, { workspace }: Scene) =>
  tool
    .run(tool.input.parse(args), {
      workspace,
      ledgerDir: `${workspace}.ledger`,
      idempotencyKey: 'agent/s1/c1',
      signal: new AbortController().signal,
    })
    .then(toolText);

test('write_file never writes outside, whenever the folder is swapped for a symlink', async () => {
  await atEverySwapPoint(
    sameName('target.txt'),
    (s) => run(writeFileTool, { path: 'sub/target.txt', content: 'new' }, s),
    (_outcome, s) => {
      expect(readdirSync(s.outside)).toEqual(['target.txt']);
      expect(readFileSync(join(s.outside, 'target.txt'), 'utf8')).toBe('OUTSIDE CONTENT');
    },
  );
});

test('write_file creating folders never creates anything outside, whenever the swap happens', async () => {
  await atEverySwapPoint(
    sameName('target.txt'),
    (s) => run(writeFileTool, { path: 'sub/deeper/new.txt', content: 'new' }, s),
    (_outcome, s) => expect(readdirSync(s.outside)).toEqual(['target.txt']),
  );
});

test('read_file never reads outside, whenever the folder is swapped for a symlink', async () => {
  await atEverySwapPoint(
    sameName('secret.txt'),
    (s) => run(readFileTool, { path: 'sub/secret.txt' }, s),
    (outcome) => {
      if (outcome.ok) expect(outcome.value).toBe('inside');
      else expect(outcome.error).not.toContain('OUTSIDE CONTENT');
    },
  );
});

test('list_files never lists outside, whenever the folder is swapped for a symlink', async () => {
  await atEverySwapPoint(
    { sub: { 'inside-name.txt': '' }, outside: { 'outside-name.txt': '' } },
    (s) => run(listFilesTool, { path: 'sub' }, s),
    (outcome) => {
      if (outcome.ok) expect(outcome.value).toBe('inside-name.txt');
      expect(JSON.stringify(outcome)).not.toContain('outside-name');
    },
  );
});

describe('without /proc (other systems): content outside is neither read nor written', () => {
  const noProc = { viaProcFd: false };

  test('writes', async () => {
    await atEverySwapPoint(
      sameName('target.txt'),
      async (s) => {
        await writeWorkspaceFile(s.workspace, 'sub/target.txt', 'new', noProc);
        return 'written';
      },
      (_outcome, s) => expect(readFileSync(join(s.outside, 'target.txt'), 'utf8')).toBe('OUTSIDE CONTENT'),
    );
  });

  test('reads', async () => {
    await atEverySwapPoint(
      sameName('secret.txt'),
      (s) => readWorkspaceFile(s.workspace, 'sub/secret.txt', 1000, noProc),
      (outcome) => {
        if (outcome.ok) expect(outcome.value).toBe('inside');
      },
    );
  });
});
