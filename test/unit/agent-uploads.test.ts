/**
 * Storing a start's files (client/uploads/store-uploads.ts) on a real temporary disk: checked
 * against the limits with their codes, placed in the agent's folder only with the start, taken
 * out again when the start fails, and staging left behind by a stopped server swept.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import { MAX_NAME_BYTES, MAX_SENT_NAME_BYTES } from '../../client/uploads/upload-names';
import { DEFAULT_UPLOAD_LIMITS } from '../../config/upload-config';
import {
  checkUploads,
  inputPaths,
  STAGING_FOLDER,
  storeThenStart,
  UploadRefusal,
  type SentFile,
} from '../../client/uploads/store-uploads';

const file = (name: string, text: string): SentFile => ({
  name,
  size: Buffer.byteLength(text),
  content: Buffer.from(text),
});

function refusal(call: () => unknown): { code: string; field?: string } | undefined {
  try {
    call();
  } catch (err) {
    if (err instanceof UploadRefusal) return { code: err.code, ...(err.field ? { field: err.field } : {}) };
    throw err;
  }
  return undefined;
}

test('limits: count and size are 413s, a type outside the list a 415, naming the file', () => {
  const limits = { ...DEFAULT_UPLOAD_LIMITS, maxFiles: 2, maxFileBytes: 3 };
  expect(refusal(() => checkUploads([file('a.txt', 'a'), file('b.txt', 'b'), file('c.txt', 'c')], limits))).toEqual({
    code: 'UPLOAD_TOO_LARGE',
  });
  expect(refusal(() => checkUploads([file('a.txt', 'abcd')], limits))).toEqual({
    code: 'UPLOAD_TOO_LARGE',
    field: 'a.txt',
  });
  expect(refusal(() => checkUploads([file('run.sh', 'x')], limits))).toEqual({
    code: 'UPLOAD_TYPE_REFUSED',
    field: 'run.sh',
  });
  // The stored name's extension decides: `x.PDF` is a pdf; `*` takes anything.
  expect(checkUploads([file('x.PDF', 'x')], limits).map((f) => f.stored)).toEqual(['x.PDF']);
  expect(checkUploads([file('run.sh', 'x')], { ...limits, types: ['*'] })).toHaveLength(1);
});

test('a sent name of 255 bytes is taken (stored cut to 200); one of 256 is refused before it is read', () => {
  expect([MAX_SENT_NAME_BYTES, MAX_NAME_BYTES]).toEqual([255, 200]);
  const longest = `${'a'.repeat(251)}.txt`;
  const wide = `a${'ü'.repeat(125)}.txt`; // ü is 2 bytes: 255 bytes
  expect([Buffer.byteLength(longest), Buffer.byteLength(wide)]).toEqual([255, 255]);
  const stored = checkUploads([file(longest, 'x'), file(wide, 'y')], DEFAULT_UPLOAD_LIMITS).map((f) => f.stored);
  expect(stored.map((name) => [Buffer.byteLength(name), name.endsWith('.txt')])).toEqual([
    [200, true],
    [199, true], // whole characters only
  ]);

  // Making a stored name starts with normalize(): a refused name never gets that far.
  const normalize = jest.spyOn(String.prototype, 'normalize');
  try {
    const tooLong = [`${'a'.repeat(252)}.txt`, `${'ü'.repeat(126)}.txt`, `a${' '.repeat(80_000)}b.txt`];
    for (const name of tooLong) {
      const refused = refusal(() => checkUploads([file('ok.txt', 'x'), file(name, 'x')], DEFAULT_UPLOAD_LIMITS));
      expect(refused?.code).toBe('UPLOAD_NAME_TOO_LONG');
      expect(Buffer.byteLength(refused?.field ?? '')).toBeLessThan(MAX_SENT_NAME_BYTES);
    }
    expect(normalize).not.toHaveBeenCalled();
  } finally {
    normalize.mockRestore();
  }
});

test('stored in the agent folder with the start; removed when the start fails', async () => {
  const root = mkdtempSync(join(tmpdir(), 'agent-uploads-'));
  // Bytes in memory, and a form's Blob (streamed to disk).
  const blob = { name: 'b.csv', size: 4, content: new Blob(['x,y\n']) };
  const checked = checkUploads([file('a.txt', 'alpha'), blob], DEFAULT_UPLOAD_LIMITS);
  expect(inputPaths(checked)).toEqual(['inputs/a.txt', 'inputs/b.csv']);
  let seen: string[] = [];
  const id = await storeThenStart(root, 'agent-one-1', checked, () => {
    // The files are in place before the agent starts: its first step may read them at once.
    seen = readdirSync(join(agentWorkspaceDir(root, 'agent-one-1'), 'inputs')).sort();
    return Promise.resolve('agent-one-1');
  });
  expect([id, seen]).toEqual(['agent-one-1', ['a.txt', 'b.csv']]);
  expect(readFileSync(join(agentWorkspaceDir(root, id), 'inputs', 'a.txt'), 'utf8')).toBe('alpha');
  expect(readFileSync(join(agentWorkspaceDir(root, id), 'inputs', 'b.csv'), 'utf8')).toBe('x,y\n');

  const failed = storeThenStart(root, 'agent-two-2', checked, () => Promise.reject(new Error('no start')));
  await expect(failed).rejects.toThrow('no start');
  expect(existsSync(agentWorkspaceDir(root, 'agent-two-2'))).toBe(false);
  expect(readdirSync(join(root, STAGING_FOLDER))).toEqual([]);
});

test('staging a stopped server left behind is swept; a fresh one is left alone', async () => {
  const root = mkdtempSync(join(tmpdir(), 'agent-uploads-'));
  const staging = join(root, STAGING_FOLDER);
  mkdirSync(join(staging, 'old'), { recursive: true });
  mkdirSync(join(staging, 'fresh'));
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  utimesSync(join(staging, 'old'), twoHoursAgo, twoHoursAgo);
  await storeThenStart(root, 'agent-three-3', checkUploads([file('a.txt', 'a')], DEFAULT_UPLOAD_LIMITS), () =>
    Promise.resolve('agent-three-3'),
  );
  expect(readdirSync(staging)).toEqual(['fresh']);
});
