/**
 * What an operator sees with the real `temporal` CLI: the workflow ids `temporal workflow list
 * --query <query>` returns on the run's dev server (a visibility query on Cairn's search
 * attributes, as typed in a terminal or the Temporal UI's filter).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runInfo } from './run-info';

/** Workflow ids the `temporal workflow list` CLI returns for `query`. */
export async function listedByTemporalCli(query: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(runInfo().temporalCli, [
    'workflow',
    'list',
    '--address',
    runInfo().temporalAddress,
    '--query',
    query,
    '--output',
    'json',
  ]);
  const rows = stdout.trim() ? (JSON.parse(stdout) as { execution?: { workflowId?: string } }[]) : [];
  return rows.map((r) => r.execution?.workflowId ?? '');
}
