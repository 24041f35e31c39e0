/**
 * The preview of a write awaiting approval (the `previewToolCall` activity): for `write_file`,
 * how the file would change — `new` when there is none yet, `same` when it already holds exactly
 * this, else the unified diff from the current file, cut to MAX_PREVIEW_CHARS. The file is read
 * like `read_file` reads it (inside the workspace only, symlinks checked, size-capped); a file
 * that cannot be read or a call of another tool gets no preview (null): the approval then shows
 * the arguments alone.
 */
import { z } from 'zod';
import {
  MAX_PREVIEW_CHARS,
  type ApprovalPreview,
  type PreviewCallInput,
} from '../../workflows/model/tools/approval-preview';
import { readWorkspaceFile } from './builtin/workspace-files';
import { unifiedDiff } from './line-diff';

/** The largest current file compared (bytes); a larger one gets no preview. */
const MAX_COMPARED_BYTES = 1_000_000;

const writeArguments = z.object({ path: z.string().min(1), content: z.string() });

/** How the call would change the workspace, when it can be told; null otherwise. */
export async function previewCall(workspace: string, input: PreviewCallInput): Promise<ApprovalPreview | null> {
  if (input.tool !== 'write_file') return null;
  const args = writeArguments.safeParse(input.arguments);
  if (!args.success) return null;
  const { path, content } = args.data;
  let current: string;
  try {
    current = await readWorkspaceFile(workspace, path, MAX_COMPARED_BYTES);
  } catch (err) {
    // No such file: the write creates it. Anything else (outside, a folder, too big): no preview.
    return codeOf(err) === 'ENOENT' ? { path, change: 'new' } : null;
  }
  if (current === content) return { path, change: 'same' };
  const diff = unifiedDiff(current, content, path);
  const cut = diff.length > MAX_PREVIEW_CHARS;
  return { path, change: 'diff', text: cut ? diff.slice(0, MAX_PREVIEW_CHARS) : diff, ...(cut ? { cut } : {}) };
}

function codeOf(err: unknown): string | undefined {
  const code = err instanceof Error && 'code' in err ? err.code : undefined;
  return typeof code === 'string' ? code : undefined;
}
