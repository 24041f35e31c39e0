/**
 * Readable workflow ids (docs/contracts.md#workflow-ids): agents `agent-<slug of the task>-<short id>`,
 * threads `thread-<slug of the first message>-<short id>`.
 */

/** `<prefix>-<slug>-<8 chars of unique>`, the slug from the text's first words (`task` when none). */
function readableId(prefix: string, text: string, unique: string): string {
  const slug = text
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
  return `${prefix}-${slug || 'task'}-${short}`;
}

/** `agent-<slug>-<8 chars of unique>`, the slug from the task's first words. */
export function agentWorkflowId(task: string, unique: string): string {
  return readableId('agent', task, unique);
}

/** `thread-<slug>-<8 chars of unique>`, the slug from the first message (`task` for an empty thread, or with encryption on). */
export function threadWorkflowId(text: string, unique: string): string {
  return readableId('thread', text, unique);
}
