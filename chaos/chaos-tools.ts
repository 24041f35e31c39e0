/**
 * The chaos suite's user tool module (loaded by the workers through CAIRN_TOOLS): `chaos_append`
 * appends one line to a workspace file — a side effect that shows on disk every time it
 * happens, so a repeated write is visible as a repeated line. Like `write_file` it honours the
 * call's idempotency key through Cairn's ledger. It pauses before writing, between the write
 * and the ledger's record of it, and before returning, so SIGKILLs land in each window of a
 * call; it keeps a journal (`.chaos/journal.log`) of every invocation and of every interrupted
 * attempt a retry found.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { once } from '../activities/tools/builtin/idempotency-ledger';
import { defineTool } from '../activities/tools/define-tool';
import { pause } from './clock';

/** Where the journal lives, relative to the workspace. */
export const JOURNAL = join('.chaos', 'journal.log');

async function journal(workspace: string, entry: string): Promise<void> {
  await mkdir(join(workspace, '.chaos'), { recursive: true });
  await appendFile(join(workspace, JOURNAL), `${entry}\n`);
}

/** `chaos_append { file, line }`: appends `line` to `file` once per idempotency key. */
export const chaosAppendTool = defineTool({
  name: 'chaos_append',
  description: 'Append one line to a file in the workspace.',
  effect: 'write',
  idempotent: true,
  input: z.object({ file: z.string().regex(/^[\w.-]+$/), line: z.string().regex(/^[^\n]+$/) }),
  async run({ file, line }, { workspace, ledgerDir, idempotencyKey }) {
    const path = join(workspace, file);
    await journal(workspace, `call ${idempotencyKey}`);
    await pause(Math.random() * 150);
    const result = await once(ledgerDir, idempotencyKey, {
      intent: `${file}:${line}`,
      result: `appended to ${file}`,
      act: async () => {
        await appendFile(path, `${line}\n`);
        await pause(Math.random() * 200); // written, not yet in the ledger: a retry must ask alreadyDone
      },
      // Only reached when an earlier attempt recorded its intent and died before its result.
      alreadyDone: async () => {
        const done = (await readFile(path, 'utf8').catch(() => '')).split('\n').includes(line);
        await journal(workspace, `${done ? 'interrupted-after-write' : 'interrupted-before-write'} ${idempotencyKey}`);
        return done;
      },
    });
    await pause(Math.random() * 150); // in the ledger, not yet reported: a retry must find the result
    return result;
  },
});
