/**
 * `write_file { path, content }`: writes a UTF-8 text file inside the workspace, exactly once
 * per idempotency key — a retried or replayed call returns the first result and does not write
 * again. A write tool: it needs approval unless the policy allows it.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { once } from './idempotency-ledger';
import { readWorkspaceFile, writeWorkspaceFile } from './workspace-files';
import { workspaceParts } from './workspace-path';

const MAX_CONTENT = 1_000_000;

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Write a text file in the workspace (created or replaced). Paths are relative to the workspace root.',
  effect: 'write',
  idempotent: true,
  input: z.object({
    path: z.string().min(1).describe('File path relative to the workspace root'),
    content: z.string().max(MAX_CONTENT).describe('The whole new content of the file'),
  }),
  async run({ path, content }, { workspace, ledgerDir, idempotencyKey }) {
    // A path that can never be written is refused before the ledger hears of it.
    const parts = workspaceParts(path);
    const hash = createHash('sha256').update(content).digest('hex');
    const bytes = Buffer.byteLength(content);
    return once(ledgerDir, idempotencyKey, {
      intent: `${parts.join('/')}:${hash}`,
      result: `wrote ${bytes} bytes to ${path}`,
      act: () => writeWorkspaceFile(workspace, path, content),
      alreadyDone: async () => (await readWorkspaceFile(workspace, path, bytes).catch(() => undefined)) === content,
    });
  },
});
