/**
 * Kill moments aimed at writes. A kill counts as landing inside a write only when the journal
 * shows it afterwards (verify.ts); aiming just makes that likely: strike as soon as the worker
 * starts a `chaos_append` call (which then has its pauses, ledger records and write ahead of
 * it), or as soon as a line reaches the disk (inside the window between the write and the
 * ledger's record of it).
 */
import { waitUntil } from '../testkit/wait-until';
import { appendedLines } from './audit';
import { openCalls, readJournal } from './journal';

/** How long an aimed kill waits for its moment before striking anyway (the verdict tells). */
const AIM_TIMEOUT_MS = 20_000;

/** Resolves as soon as `worker` starts a `chaos_append` call; false when none started in time. */
export async function nextCallStart(workspace: string, worker: string): Promise<boolean> {
  const before = new Set(openCalls(await readJournal(workspace), worker));
  const started = async () => openCalls(await readJournal(workspace), worker).some((key) => !before.has(key));
  return waitUntil(`a chaos_append call on ${worker}`, started, { timeoutMs: AIM_TIMEOUT_MS, intervalMs: 10 }).catch(
    () => false,
  );
}

/** Resolves as soon as one more appended line is on disk; false when none came in time. */
export async function nextWrite(workspace: string, ids: string[]): Promise<boolean> {
  const seen = await appendedLines(workspace, ids);
  return waitUntil('the next write', async () => (await appendedLines(workspace, ids)) > seen, {
    timeoutMs: AIM_TIMEOUT_MS,
    intervalMs: 10,
  }).catch(() => false);
}
