/** `read_file { path }`: reads a UTF-8 text file inside the workspace. */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { readWorkspaceFile } from './workspace-files';

const MAX_BYTES = 1_000_000;

export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file from the workspace. Paths are relative to the workspace root.',
  effect: 'read',
  idempotent: true,
  input: z.object({ path: z.string().min(1).describe('File path relative to the workspace root') }),
  run: ({ path }, { workspace }) => readWorkspaceFile(workspace, path, MAX_BYTES),
});
