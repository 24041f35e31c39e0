/**
 * The chaos tool's journal (`.chaos/journal.log` in the workspace), one entry a line as
 * `<kind> <idempotency key>[ <worker>]`: `call` when an invocation starts and `return` when
 * it ends (both with the worker that ran it, from CHAOS_WORKER), and `interrupted-after-write`
 * / `interrupted-before-write` when a retry found an earlier attempt that died inside the
 * write. A `call` with no `return` on a worker that was SIGKILLed is a kill that landed inside
 * a write call — read afterwards from the journal, not guessed from timing.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the journal lives, relative to the workspace. */
export const JOURNAL = join('.chaos', 'journal.log');

/** The environment variable naming the worker process (set by the lab) that journals a call. */
export const WORKER_ENV = 'CHAOS_WORKER';

/** One journal line, parsed. */
export interface JournalEntry {
  kind: string;
  key: string;
  worker?: string;
}

/** Appends one entry. */
export async function appendJournal(workspace: string, entry: string): Promise<void> {
  await mkdir(join(workspace, '.chaos'), { recursive: true });
  await appendFile(join(workspace, JOURNAL), `${entry}\n`);
}

/** Every entry so far (none when the journal does not exist yet). */
export async function readJournal(workspace: string): Promise<JournalEntry[]> {
  const text = await readFile(join(workspace, JOURNAL), 'utf8').catch(() => '');
  return parseJournal(text);
}

/** Parses the journal's text; a line cut short by a kill has no key and is dropped. */
export function parseJournal(text: string): JournalEntry[] {
  return text.split('\n').flatMap((line) => {
    const [kind, key, worker] = line.split(' ');
    return kind && key ? [{ kind, key, ...(worker ? { worker } : {}) }] : [];
  });
}

/** What the journal shows about retries. */
export interface JournalFigures {
  /** Invocations beyond one per idempotency key: retries the ledger had to answer. */
  retriedCalls: number;
  /** Retries that found an earlier attempt had written but not yet recorded its result. */
  interruptedAfterWrite: number;
  /** Retries that found an earlier attempt had recorded its intent but not written. */
  interruptedBeforeWrite: number;
}

/** Counts retries and interrupted writes. */
export function journalFigures(entries: readonly JournalEntry[]): JournalFigures {
  const calls = entries.filter((e) => e.kind === 'call');
  const count = (kind: string) => entries.filter((e) => e.kind === kind).length;
  return {
    retriedCalls: calls.length - new Set(calls.map((c) => c.key)).size,
    interruptedAfterWrite: count('interrupted-after-write'),
    interruptedBeforeWrite: count('interrupted-before-write'),
  };
}

/** Keys of the calls `worker` started and never finished; for a killed worker, the calls the kill cut. */
export function openCalls(entries: readonly JournalEntry[], worker: string): string[] {
  const open = new Map<string, number>();
  for (const { kind, key, worker: by } of entries) {
    if (by !== worker || (kind !== 'call' && kind !== 'return')) continue;
    open.set(key, (open.get(key) ?? 0) + (kind === 'call' ? 1 : -1));
  }
  return [...open].filter(([, n]) => n > 0).map(([key]) => key);
}

/** How many of `killed` (worker names) died with at least one call open: kills that landed inside a write. */
export function killsInWrites(entries: readonly JournalEntry[], killed: readonly string[]): number {
  return killed.filter((worker) => openCalls(entries, worker).length > 0).length;
}
