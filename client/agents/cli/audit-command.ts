/**
 * `cairn audit <id>`: every decision on an agent — answers with who (principal, roles, how it
 * came), expiries, pauses, resumes, the end — oldest first; `--json` for scripts.
 */
import type { AuditEntry } from '../audit-entries';
import { withAgents } from './agent-commands';
import { EXIT } from '../../cli/cli-exit';
import { printLine } from '../../cli/terminal';

/** One entry as a line: time, what, decision, who. */
export function formatAuditEntry(entry: AuditEntry): string {
  const actor = entry.actor;
  const who = actor
    ? ` by ${actor.id}${actor.name ? ` (${actor.name})` : ''} [${actor.roles.join(', ') || 'no role'}; ${actor.method}]`
    : entry.by
      ? ` by ${entry.by}`
      : '';
  const decision = entry.decision ? `: ${entry.decision}` : '';
  const id = entry.interactionId ? `${entry.interactionId} ` : '';
  // A timeline message that names its actor ("cancelled by olga") names them once, at the end.
  const what = actor ? entry.what.replace(` by ${actor.id}`, '') : entry.what;
  return `${new Date(entry.at).toISOString()}  ${id}${what}${decision}${who}`;
}

/** The audit as lines, oldest first; with no entry, a line saying so rather than nothing. */
export function formatAudit(id: string, entries: readonly AuditEntry[]): string {
  return entries.length > 0 ? entries.map(formatAuditEntry).join('\n') : `no decisions on ${id} yet`;
}

/** Prints the audit of agent `id`: from the HTTP API with CAIRN_API_URL (sending CAIRN_TOKEN), else from Temporal. */
export function auditCommand(id: string, options: { json?: boolean }): Promise<number> {
  return withAgents(async (agents) => {
    const entries = await agents.audit(id);
    printLine(options.json ? JSON.stringify({ id, entries }, null, 2) : formatAudit(id, entries));
    return EXIT.ok;
  });
}
