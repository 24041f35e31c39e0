/**
 * The agent's progress as Markdown, shown in the Temporal UI as the workflow's current details: a
 * plan's steps with their dependencies, or a graph agent's visits (`review · visit 2 → revise`).
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
  const visits = (state.path?.length ?? 0) + (state.pathDropped ?? 0);
  const shape = state.graph ? `graph ${state.graph.name} · ${visits} visits` : `plan r${state.revision}`;
  const lines = [`**${state.phase}** · ${shape} · ${state.usage.totalTokens} tokens`];
  for (const step of state.steps) {
    const deps = state.plan?.steps.find((s) => s.id === step.id)?.depends_on ?? [];
    const visit = state.path?.find((entry) => entry.stepId === step.id);
    const where = visit ? `${visit.node} · visit ${visit.visit}` : step.title;
    const to = visit?.edge ? ` → ${visit.edge.to}` : '';
    lines.push(
      `- ${MARK[step.status] ?? '?'} \`${step.id}\` ${where}${deps.length ? ` ← ${deps.join(', ')}` : ''}${to}`,
    );
  }
  const open = state.interactions.filter((i) => i.status === 'open');
  if (open.length) lines.push('', `Waiting for input: ${open.map((i) => `${i.id} (${i.kind})`).join(', ')}`);
  return lines.join('\n');
}
