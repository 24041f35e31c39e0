/**
 * The agent's progress as Markdown, shown in the Temporal UI as the workflow's current details: a
 * plan's steps with their dependencies, or a graph agent's visits (`review · visit 2 → revise`),
 * then what it waits for, one line each (the tool and the file it waits to write, a question).
 */
import type { AgentState } from './agent-state';
import type { Interaction } from '../interactions/interaction-types';

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
  if (open.length) lines.push('', 'Waiting for input:', ...open.map((i) => `- ${waitingLine(i)}`));
  return lines.join('\n');
}

/** The longest subject a waiting line shows (a question's prompt, a call's argument). */
const SUBJECT_CHARS = 80;

/** `text` on one line, cut past SUBJECT_CHARS. */
function subject(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SUBJECT_CHARS ? `${line.slice(0, SUBJECT_CHARS - 1)}…` : line;
}

/** The argument that says what a call acts on: a path, a URL or a command, else the first text argument. */
function callTarget(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const values = args as Record<string, unknown>;
  for (const key of ['path', 'url', 'command', 'file', 'name']) {
    const value = values[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return Object.values(values).find((value): value is string => typeof value === 'string' && value.trim() !== '');
}

/**
 * One open interaction as the operator reads it: its id, kind and step, and what it is about — a
 * tool approval's tool and the file, URL or command it waits to act on; a question's prompt.
 */
export function waitingLine(interaction: Interaction): string {
  const head = `${interaction.id} ${interaction.kind}${interaction.stepId ? ` in \`${interaction.stepId}\`` : ''}`;
  if (interaction.kind === 'tool.approval') {
    const target = callTarget(interaction.arguments);
    return `${head}: ${interaction.tool}${target ? ` ${subject(target)}` : ''}`;
  }
  return `${head}: ${subject(interaction.prompt)}`;
}
