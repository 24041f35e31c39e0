/** `list_files { path? }`: lists a workspace folder (names, `/` after folders), sorted. */
import { readdir } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { resolveInWorkspace } from './workspace-path';

const MAX_ENTRIES = 500;

export const listFilesTool = defineTool({
  name: 'list_files',
  description: 'List the files and folders in a workspace folder (the root when no path is given).',
  effect: 'read',
  idempotent: true,
  input: z.object({ path: z.string().optional().describe('Folder relative to the workspace root') }),
  async run({ path }, { workspace }) {
    const folder = await resolveInWorkspace(workspace, path ?? '.');
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => {
      throw new Error(`"${path ?? '.'}" is not a folder in the workspace`);
    });
    const names = entries
      .filter((e) => e.name !== '.cairn')
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    const shown = names.slice(0, MAX_ENTRIES).join('\n');
    return names.length > MAX_ENTRIES ? `${shown}\n(${names.length - MAX_ENTRIES} more)` : shown || '(empty)';
  },
});
