/**
 * A ledger of side effects already done, one file per call in the ledger folder
 * (`CAIRN_LEDGER_DIR`, given to tools as `context.ledgerDir`), keyed by the call's idempotency
 * key `<agent id>/<step id>/<call id>`. A retried or replayed call with the same key finds its
 * entry and returns the first result instead of acting again — even after the worker process
 * died between acting and reporting. The folder lies outside the workspace: a model that could
 * read or forge entries with the file tools could turn a later write into a silent no-op.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';

const entrySchema = z.object({
  key: z.string(),
  /** What the effect will be (e.g. a content hash); written before acting. */
  intent: z.string(),
  /** The first result, once the effect is done. */
  result: z.string().optional(),
});
type Entry = z.infer<typeof entrySchema>;

function entryPath(ledgerDir: string, key: string): string {
  return join(ledgerDir, `${createHash('sha256').update(key).digest('hex')}.json`);
}

async function read(path: string): Promise<Entry | undefined> {
  try {
    return entrySchema.parse(JSON.parse(await readFile(path, 'utf8')));
  } catch {
    return undefined;
  }
}

async function write(path: string, entry: Entry): Promise<void> {
  // Only this user may read what was done (keys, intents).
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(`${path}.tmp`, JSON.stringify(entry));
  await rename(`${path}.tmp`, path);
}

/**
 * Performs a side effect once per key and returns its (known in advance) result text.
 * @param ledgerDir the ledger folder (`context.ledgerDir`), never inside the workspace.
 * @param intent describes the effect (e.g. path + content hash); recorded before acting.
 * @param alreadyDone whether an interrupted attempt with the same intent did complete it.
 */
export async function once(
  ledgerDir: string,
  key: string,
  effect: { intent: string; result: string; act: () => Promise<void>; alreadyDone: () => Promise<boolean> },
): Promise<string> {
  const path = entryPath(ledgerDir, key);
  const entry = await read(path);
  if (entry?.result !== undefined) return entry.result;
  const interrupted = entry?.intent === effect.intent && (await effect.alreadyDone());
  if (!interrupted) {
    await write(path, { key, intent: effect.intent });
    await effect.act();
  }
  await write(path, { key, intent: effect.intent, result: effect.result });
  return effect.result;
}
