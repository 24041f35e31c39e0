/**
 * The chaos suite's user tool module (loaded by the workers through CAIRN_TOOLS): `chaos_append`
 * appends one line to a file in the agent's folder — a side effect that shows on disk every time it
 * happens, so a repeated write is visible as a repeated line. Like `write_file` it honours the
 * call's idempotency key through Cairn's ledger. It pauses before writing, between the write
 * and the ledger's record of it, and before returning, so SIGKILLs land in each window of a
 * call; it journals (chaos/journal.ts) the start and end of every invocation, with the worker
 * that ran it, and every interrupted attempt a retry found. While the workspace holds
 * HOLD_WRITES_FILE, a call that has written waits before it returns: a scenario holds a call open
 * across a disruption it causes (a server restart), so the disruption surely hits work in flight.
 */
import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { once } from '../activities/tools/builtin/idempotency-ledger';
import { defineTool, type ToolDefinition } from '../activities/tools/define-tool';
import { pause } from './clock';
import { appendJournal as journal, WORKER_ENV } from './journal';

/** While this file is in the workspace, calls that have written wait before they return. */
export const HOLD_WRITES_FILE = '.chaos-hold-writes';

/**
 * The workspace root, where the lab keeps the journal and the hold file: the worker's
 * CAIRN_WORKSPACE. A call's own `workspace` is its agent's folder below it.
 */
const rootOf = (workspace: string): string => process.env.CAIRN_WORKSPACE ?? workspace;

/** The worker this process is, as the lab named it (the pid when run outside the lab). */
const worker = (): string => process.env[WORKER_ENV] ?? `pid${process.pid}`;

const appendOnce = defineTool({
  name: 'chaos_append',
  description: 'Append one line to a file in the workspace.',
  effect: 'write',
  idempotent: true,
  input: z.object({ file: z.string().regex(/^[\w.-]+$/), line: z.string().regex(/^[^\n]+$/) }),
  async run({ file, line }, { workspace, ledgerDir, idempotencyKey }) {
    const path = join(workspace, file);
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
        await journal(
          rootOf(workspace),
          `${done ? 'interrupted-after-write' : 'interrupted-before-write'} ${idempotencyKey}`,
        );
        return done;
      },
    });
    await pause(Math.random() * 150); // in the ledger, not yet reported: a retry must find the result
    while (existsSync(join(rootOf(workspace), HOLD_WRITES_FILE))) await pause(20);
    return result;
  },
});

/**
 * `chaos_append { file, line }`: appends `line` to `file` once per idempotency key, journalling
 * the invocation's start and its end (an error ends it too; only a kill leaves it open).
 */
export const chaosAppendTool: ToolDefinition = {
  ...appendOnce,
  async run(args, context) {
    await journal(rootOf(context.workspace), `call ${context.idempotencyKey} ${worker()}`);
    try {
      return await appendOnce.run(args, context);
    } finally {
      await journal(rootOf(context.workspace), `return ${context.idempotencyKey} ${worker()}`);
    }
  },
};
