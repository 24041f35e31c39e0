/** `read_file { path }`: reads a UTF-8 text file inside the workspace. */
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { resolveInWorkspace } from './workspace-path';

const MAX_BYTES = 1_000_000;

export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file from the workspace. Paths are relative to the workspace root.',
  effect: 'read',
  idempotent: true,
  input: z.object({ path: z.string().min(1).describe('File path relative to the workspace root') }),
  async run({ path }, { workspace }) {
    const file = await resolveInWorkspace(workspace, path);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new Error(`"${path}" is not a file in the workspace`);
    if (info.size > MAX_BYTES) throw new Error(`"${path}" is ${info.size} bytes; the limit is ${MAX_BYTES}`);
    return readFile(file, 'utf8');
  },
});
