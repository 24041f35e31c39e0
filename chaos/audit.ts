/**
 * The write audit: reads what is actually on disk in a scenario's workspace and compares it
 * with what the agents meant to write. A `chaos_append` line seen twice is a duplicate write;
 * an intended line or `write_file` file that is absent (or has other content) is missing. The
 * tool's journal adds how often calls were retried and how many retries found an interrupted
 * write — evidence that the kills landed inside write calls.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentWorkspaceDir } from '../config/agent-workspace';
import { intendedWrites, logFileOf } from './agent-script';
import { journalFigures, readJournal, type JournalFigures } from './journal';

/** What the audit found, with the journal's retry figures. */
export interface WriteAudit extends JournalFigures {
  /** Writes the agents meant to make. */
  intended: number;
  /** Writes found on disk, every repeat included. */
  onDisk: number;
  /** Writes found more than once (each extra copy counts). */
  duplicates: number;
  /** Intended writes not found. */
  missing: number;
  /** Lines nobody meant to write. */
  unexpected: number;
  /** Human-readable lines for each problem found. */
  problems: string[];
}

/** Where an agent's `path` lies: in its own folder below the workspace root. */
const agentFile = (workspace: string, agentId: string, path: string): string =>
  join(agentWorkspaceDir(workspace, agentId), path);

const readText = (path: string): Promise<string | undefined> => readFile(path, 'utf8').catch(() => undefined);

/** How many lines the agents' `chaos_append` calls have written so far (a cheap progress probe). */
export async function appendedLines(workspace: string, agentIds: string[]): Promise<number> {
  const texts = await Promise.all(agentIds.map((id) => readText(agentFile(workspace, id, logFileOf(id)))));
  return texts.reduce((sum, text) => sum + (text ?? '').split('\n').filter(Boolean).length, 0);
}

/** Audits the writes of `agentIds` in `workspace`. */
export async function auditWrites(workspace: string, agentIds: string[]): Promise<WriteAudit> {
  const audit: Omit<WriteAudit, keyof JournalFigures> = {
    intended: 0,
    onDisk: 0,
    duplicates: 0,
    missing: 0,
    unexpected: 0,
    problems: [],
  };
  for (const agentId of agentIds) {
    const { lines, files } = intendedWrites(agentId);
    audit.intended += lines.length + files.length;
    const found = ((await readText(agentFile(workspace, agentId, logFileOf(agentId)))) ?? '')
      .split('\n')
      .filter(Boolean);
    audit.onDisk += found.length;
    for (const line of lines) {
      const times = found.filter((l) => l === line).length;
      if (times === 0) audit.problems.push(`missing line "${line}"`);
      if (times > 1) audit.problems.push(`line "${line}" written ${times} times`);
      audit.missing += times === 0 ? 1 : 0;
      audit.duplicates += Math.max(0, times - 1);
    }
    for (const line of found.filter((l) => !lines.includes(l))) {
      audit.unexpected++;
      audit.problems.push(`unexpected line "${line}" in ${logFileOf(agentId)}`);
    }
    for (const file of files) {
      const content = await readText(agentFile(workspace, agentId, file.path));
      if (content === file.content) audit.onDisk++;
      else {
        audit.missing++;
        audit.problems.push(`${file.path} ${content === undefined ? 'missing' : 'has other content'}`);
      }
    }
  }
  return { ...audit, ...journalFigures(await readJournal(workspace)) };
}
