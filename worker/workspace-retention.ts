/**
 * Retention of finished agents' folders (CAIRN_WORKSPACE_RETENTION_DAYS, docs/operations.md#retention):
 * a worker sweeps the workspace root when it starts and then once a day, outside any workflow.
 * A folder is deleted only when it is provably a finished agent's (or thread's): its name is the
 * id of a workflow Temporal still knows, that workflow is closed, and it closed at least the
 * retention period ago. Anything else stays — a running agent's folder, a folder whose workflow
 * Temporal no longer (or never) knew (files older agents wrote in the shared root, uploads for an
 * agent that never started, hashed folder names), and plain files in the root. Several workers
 * sweeping at once is harmless: deleting what is gone is no error.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { workspaceFolderName } from '../config/agent-workspace';

/** One day in milliseconds: the retention's unit. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** How often a running worker sweeps (after the sweep at its start). */
export const SWEEP_EVERY_MS = DAY_MS;

/** When workflow `id` closed (ms since the epoch), `running`, or `unknown` to Temporal. */
export type CloseTime = number | 'running' | 'unknown';

/** What a sweep needs: the root, how long a closed agent's folder is kept, and the workflows' close times. */
export interface SweepOptions {
  root: string;
  retentionMs: number;
  closeTime: (id: string) => Promise<CloseTime>;
  now?: () => number;
}

/** The close time of workflow `id` (its latest run) as Temporal describes it. */
export function temporalCloseTime(client: Client): (id: string) => Promise<CloseTime> {
  return async (id) => {
    try {
      const described = await client.workflow.getHandle(id).describe();
      if (described.status.name === 'RUNNING') return 'running';
      return described.closeTime?.getTime() ?? 'running';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'unknown';
      throw err;
    }
  };
}

/**
 * Deletes the folders of agents that closed at least `retentionMs` ago; returns their names.
 * Only folders named by an id as it is (a safe name) are considered; symbolic links never.
 */
export async function sweepWorkspaces({
  root,
  retentionMs,
  closeTime,
  now = Date.now,
}: SweepOptions): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch((err: unknown) => {
    if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT') return [];
    throw err;
  });
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || workspaceFolderName(entry.name) !== entry.name) continue;
    const closed = await closeTime(entry.name);
    if (typeof closed !== 'number' || now() - closed < retentionMs) continue;
    await rm(join(root, entry.name), { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}

/**
 * Sweeps now and then every SWEEP_EVERY_MS until stopped; a failed sweep is reported to `warn`
 * and the next one tries again. The timer does not keep the process alive.
 */
export function startWorkspaceRetention(
  options: SweepOptions,
  log: { info: (message: string) => void; warn: (message: string) => void },
): { stop: () => void } {
  const sweep = () =>
    void sweepWorkspaces(options).then(
      (removed) => {
        if (removed.length) log.info(`workspace retention: removed the folders of ${removed.length} finished agents`);
      },
      (err: unknown) =>
        log.warn(`workspace retention: sweep failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
