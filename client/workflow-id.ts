/** Readable agent workflow ids (docs/contracts.md#workflow-ids): `agent-<slug of the task>-<short id>`. */

/** `agent-<slug>-<8 chars of unique>`, the slug from the task's first words. */
export function agentWorkflowId(task: string, unique: string): string {
  const slug = task
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  const short = unique
    .replace(/[^a-z0-9]/gi, '')
    .slice(0, 8)
    .toLowerCase();
  return `agent-${slug || 'task'}-${short}`;
}
