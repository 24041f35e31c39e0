/** `list_files { path? }`: lists a workspace folder (names, `/` after folders), sorted. */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { listWorkspaceFolder } from './workspace-files';

const MAX_ENTRIES = 500;

export const listFilesTool = defineTool({
  name: 'list_files',
  description: 'List the files and folders in a workspace folder (the root when no path is given).',
  effect: 'read',
  idempotent: true,
  input: z.object({ path: z.string().optional().describe('Folder relative to the workspace root') }),
  async run({ path }, { workspace }) {
    const entries = await listWorkspaceFolder(workspace, path ?? '.');
    const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
    const shown = names.slice(0, MAX_ENTRIES).join('\n');
    return names.length > MAX_ENTRIES ? `${shown}\n(${names.length - MAX_ENTRIES} more)` : shown || '(empty)';
  },
});
