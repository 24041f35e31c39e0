/**
 * The agent's progress as Markdown, shown in the Temporal UI as the workflow's current details.
 */
import type { AgentState } from './agent-state';

const MARK: Record<string, string> = {
  pending: '○',
  running: '◔',
  waiting: '⏸',
  completed: '●',
  failed: '✕',
  skipped: '–',
  cancelled: '⊘',
};

export function progressMarkdown(state: AgentState): string {
  const lines = [`**${state.phase}** · plan r${state.revision} · ${state.usage.totalTokens} tokens`];
  for (const step of state.steps) {
    const deps = state.plan?.steps.find((s) => s.id === step.id)?.depends_on ?? [];
    lines.push(
      `- ${MARK[step.status] ?? '?'} \`${step.id}\` ${step.title}${deps.length ? ` ← ${deps.join(', ')}` : ''}`,
    );
  }
  const open = state.interactions.filter((i) => i.status === 'open');
  if (open.length) lines.push('', `Waiting for input: ${open.map((i) => `${i.id} (${i.kind})`).join(', ')}`);
  return lines.join('\n');
}
