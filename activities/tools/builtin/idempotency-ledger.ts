/**
 * A ledger of side effects already done, kept in the workspace (`.cairn/ledger/`), keyed by
 * the call's idempotency key `<agent id>/<step id>/<call id>` (DESIGN §4.5). A retried or
 * replayed call with the same key finds its entry and returns the first result instead of
 * acting again — even after the worker process died between acting and reporting.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

interface Entry {
  key: string;
  /** What the effect will be (e.g. a content hash); written before acting. */
  intent: string;
  /** The first result, once the effect is done. */
  result?: string;
}

function entryPath(workspace: string, key: string): string {
  return join(workspace, '.cairn', 'ledger', `${createHash('sha256').update(key).digest('hex')}.json`);
}

async function read(path: string): Promise<Entry | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Entry;
  } catch {
    return undefined;
  }
}

async function write(path: string, entry: Entry): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(`${path}.tmp`, JSON.stringify(entry));
  await rename(`${path}.tmp`, path);
}

/**
 * Performs a side effect once per key and returns its (known in advance) result text.
 * @param intent describes the effect (e.g. path + content hash); recorded before acting.
 * @param alreadyDone whether an interrupted attempt with the same intent did complete it.
 */
export async function once(
  workspace: string,
  key: string,
  effect: { intent: string; result: string; act: () => Promise<void>; alreadyDone: () => Promise<boolean> },
): Promise<string> {
  const path = entryPath(workspace, key);
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
