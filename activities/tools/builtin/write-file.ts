/**
 * `write_file { path, content }`: writes a UTF-8 text file inside the workspace, exactly once
 * per idempotency key — a retried or replayed call returns the first result and does not write
 * again (DESIGN §4.5). A write tool: it needs approval unless the policy allows it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { once } from './idempotency-ledger';
import { resolveInWorkspace } from './workspace-path';

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
  async run({ path, content }, { workspace, idempotencyKey }) {
    const file = await resolveInWorkspace(workspace, path);
    const hash = createHash('sha256').update(content).digest('hex');
    return once(workspace, idempotencyKey, {
      intent: `${file}:${hash}`,
      result: `wrote ${Buffer.byteLength(content)} bytes to ${path}`,
      act: async () => {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, content);
      },
      alreadyDone: async () => (await readFile(file, 'utf8').catch(() => undefined)) === content,
    });
  },
});
