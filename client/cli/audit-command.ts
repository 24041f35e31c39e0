/**
 * `cairn audit <id>`: every decision on an agent — answers with who (principal, roles, how it
 * came), expiries, pauses, resumes, the end — oldest first; `--json` for scripts.
 */
import { loadConfigOrExit } from '../../config/load-config-or-exit';
import { AgentClient } from '../agent-client';
import { auditOf, type AuditEntry } from '../audit-entries';
import { EXIT } from './cli-exit';

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
  return `${new Date(entry.at).toISOString()}  ${id}${entry.what}${decision}${who}`;
}

/** Prints the audit of agent `id`. */
export async function auditCommand(id: string, options: { json?: boolean }): Promise<number> {
  const client = await AgentClient.connect(loadConfigOrExit());
  try {
    const entries = auditOf(await client.state(id));
    console.log(options.json ? JSON.stringify({ id, entries }, null, 2) : entries.map(formatAuditEntry).join('\n'));
    return EXIT.ok;
  } finally {
    await client.close();
  }
}
