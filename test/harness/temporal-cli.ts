/**
 * What an operator does with the real `temporal` CLI on the run's dev server: list workflows by
 * a visibility query on Cairn's search attributes (as typed in a terminal or the Temporal UI's
 * filter), and send a signal with a plain JSON payload (as the Temporal UI's signal form does —
 * no Cairn client, no codec).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runInfo } from './run-info';

const temporalCli = (args: string[]) =>
  promisify(execFile)(runInfo().temporalCli, [...args, '--address', runInfo().temporalAddress]);

/** Workflow ids the `temporal workflow list` CLI returns for `query`. */
export async function listedByTemporalCli(query: string): Promise<string[]> {
  const { stdout } = await temporalCli(['workflow', 'list', '--query', query, '--output', 'json']);
  const rows = stdout.trim() ? (JSON.parse(stdout) as { execution?: { workflowId?: string } }[]) : [];
  return rows.map((r) => r.execution?.workflowId ?? '');
}

/** `temporal workflow signal`: signal `name` with `input` as its one JSON argument. */
export async function signalByTemporalCli(workflowId: string, name: string, input: unknown): Promise<void> {
  await temporalCli([
    'workflow',
    'signal',
    '--workflow-id',
    workflowId,
    '--name',
    name,
    '--input',
    JSON.stringify(input),
  ]);
}
