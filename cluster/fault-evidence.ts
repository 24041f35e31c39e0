/**
 * Evidence that a cluster fault hit work, beyond the histories' (chaos/in-flight.ts), read
 * after the agents ended — never inferred from timing alone. From PostgreSQL: the history shard
 * each workflow lives on, so a history host's kill counts only work on the shards it owned. From
 * the Temporal services' logs: the workflow updates the history service failed to persist while
 * PostgreSQL was down.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Postgres } from './postgres';

/** Where a log file ends now: lines after this offset were written later. */
export const logEnd = (file: string): number => statSync(file).size;

/** The lines of `file` between byte offsets `from` and `to`. */
export function logLines(file: string, from: number, to: number): string[] {
  return readFileSync(file).subarray(from, to).toString('utf8').split('\n').filter(Boolean);
}

/** What the history service logs, with the workflow's id, when it could not persist a workflow's update. */
const UPDATE_FAILED = '"msg":"Update workflow execution operation failed."';

/**
 * The workflow ids (among `among`) of the updates logged as failed in `file` from byte `from`
 * on, one per log line: writes of those workflows that hit a database that was not there.
 */
export function failedUpdates(file: string, from: number, among: ReadonlySet<string>): string[] {
  return logLines(file, from, logEnd(file)).flatMap((line) => {
    if (!line.includes(UPDATE_FAILED)) return [];
    const id = /"wf-id":"([^"]+)"/.exec(line)?.[1];
    return id !== undefined && among.has(id) ? [id] : [];
  });
}

/** The history shard (1-based, as the servers log it) of each of `workflowIds`, read from Temporal's database. */
export async function shardsOf(postgres: Postgres, workflowIds: string[]): Promise<Map<string, number>> {
  const quoted = workflowIds.map((id) => `'${id.replaceAll("'", "''")}'`).join(', ');
  const rows = await postgres.query(
    'temporal',
    `SELECT DISTINCT workflow_id, shard_id FROM current_executions WHERE workflow_id IN (${quoted})`,
  );
  return new Map(rows.map(([id, shard]) => [id ?? '', Number(shard)]));
}
