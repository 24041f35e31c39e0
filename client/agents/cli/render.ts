/**
 * Text renderings for people: timeline events, a plan as a numbered list with dependencies, an
 * agent's state, the list of agents, token usage and an approval request. Pure functions.
 */
import type { AgentSummary } from '../agent-client';
import type { AgentEvent, AgentState } from '../../../workflows/model/agent/agent-state';
import type { TokenUsage } from '../../../workflows/model/llm/llm-types';
import type { Interaction } from '../../../workflows/model/interactions/interaction-types';
import type { Plan } from '../../../workflows/model/plan/plan-types';
import type { ApprovalPreview } from '../../../workflows/model/tools/approval-preview';
import { stepDisplayStatus } from '../../status-display';
import { formatGraphPath } from '../../graphs/cli/render-graph';

const EVENT_MARKS: Partial<Record<AgentEvent['type'], string>> = {
  'step.started': '▶',
  'step.finished': '■',
  'tool.called': '⚙',
  'step.guard': '⚠',
  'interaction.opened': '?',
  'interaction.answered': '✓',
  'interaction.expired': '⌛',
  'answer.rejected': '✗',
  'signal.rejected': '✗',
  'agent.finished': '●',
};

/** One timeline event as a line: `HH:MM:SS ▶ s1 started: Title`. */
export function formatEvent(event: AgentEvent): string {
  const time = new Date(event.at).toISOString().slice(11, 19);
  const mark = EVENT_MARKS[event.type] ?? '·';
  const where = (event.type === 'tool.called' || event.type === 'step.guard') && event.stepId ? `${event.stepId} ` : '';
  return `${time} ${mark} ${where}${event.message}`;
}

/** The plan as a numbered list: `1. [s1] Title (after s0)` with the description indented; an adopted step says `[reused: …]`. */
export function formatPlan(plan: Plan): string {
  return plan.steps
    .map((step, index) => {
      const after = step.depends_on.length > 0 ? ` (after ${step.depends_on.join(', ')})` : '';
      const doneWhen = step.done_when ? `\n     done when: ${step.done_when}` : '';
      const replan = plan.replan.includes(step.id) ? ' [replan after]' : '';
      // An adopted earlier step: done already, it will not run.
      const reused = step.reused ? ` [reused: ${step.reused.stepId} of ${step.reused.agentId}]` : '';
      return `${String(index + 1).padStart(2)}. [${step.id}] ${step.title}${after}${replan}${reused}\n     ${step.description}${doneWhen}`;
    })
    .join('\n');
}

/** `1234 tokens (prompt 1000, completion 234)`. */
export function formatUsage(usage: TokenUsage): string {
  return `${usage.totalTokens} tokens (prompt ${usage.promptTokens}, completion ${usage.completionTokens})`;
}

/**
 * What a tool approval asks about: tool, why, how a write would change its file (the worker's
 * preview: new, unchanged, or the diff against the current file), and each argument on its own —
 * a text value with its line breaks (a file a write would create reads as the file), anything
 * else as indented JSON.
 */
export function formatApproval(interaction: Extract<Interaction, { kind: 'tool.approval' }>): string {
  const why = interaction.why ? `\n  why: ${interaction.why}` : '';
  const change = interaction.preview ? `\n${formatChange(interaction.preview)}` : '';
  return `Tool ${interaction.tool}${interaction.stepId ? ` (step ${interaction.stepId})` : ''}${why}${change}\n${formatArguments(interaction.arguments)}`;
}

/** A write's preview: `  change: new file notes.md`, `… none`, or the diff indented under `  diff:`. */
function formatChange(preview: ApprovalPreview): string {
  if (preview.change === 'new') return `  change: new file ${preview.path}`;
  if (preview.change === 'same') return `  change: none (${preview.path} already holds exactly this)`;
  const diff = (preview.text ?? '').replace(/\n/g, '\n    ');
  return `  diff:\n    ${diff}${preview.cut ? '\n    (the diff is cut here)' : ''}`;
}

/** A call's arguments for people, indented under `arguments:`. */
function formatArguments(args: unknown): string {
  const indent = (text: string, by: string) => text.replace(/\n/g, `\n${by}`);
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return `  arguments: ${indent(JSON.stringify(args, null, 2), '  ')}`;
  }
  const rows = Object.entries(args).map(([key, value]) => {
    if (typeof value === 'string' && !value.includes('\n')) return `    ${key}: ${value}`;
    const text = typeof value === 'string' ? value.replace(/\n$/, '') : JSON.stringify(value, null, 2);
    return `    ${key}:\n      ${indent(text, '      ')}`;
  });
  return ['  arguments:', ...rows].join('\n');
}

/** A heading for an interaction: `[i2 · tool.approval · s1] prompt`. */
export function formatInteractionHeading(interaction: Interaction): string {
  const step = interaction.stepId ? ` · ${interaction.stepId}` : '';
  return `[${interaction.id} · ${interaction.kind}${step}] ${interaction.prompt}`;
}

/**
 * Agents as aligned columns under a header: id, phase (with `*` when waiting for input), status,
 * started, spend (tokens and cost), task (and the build it runs on).
 */
export function formatAgentList(agents: AgentSummary[]): string {
  if (agents.length === 0) return 'no agents';
  const idWidth = Math.max('ID'.length, ...agents.map((a) => a.id.length));
  const spends = agents.map((a) => formatSpend(a.spend));
  const spendWidth = Math.max('SPEND'.length, ...spends.map((s) => s.length));
  const row = (id: string, phase: string, status: string, started: string, spend: string, task: string) =>
    `${id.padEnd(idWidth)}  ${phase.padEnd(15)}  ${status.padEnd(10)}  ${started.padEnd(19)}  ${spend.padEnd(spendWidth)}  ${task}`;
  const header = row('ID', 'PHASE', 'STATUS', 'STARTED', 'SPEND', 'TASK').trimEnd();
  const rows = agents.map((a, n) => {
    const phase = `${a.phase}${a.awaitingInput ? '*' : ''}`;
    const started = (a.startedAt ?? '').slice(0, 19).replace('T', ' ');
    const version = a.version ? `  [${a.version}]` : '';
    return row(a.id, phase, a.status, started, spends[n] ?? '', `${a.task.slice(0, 60)}${version}`);
  });
  const waiting = agents.some((a) => a.awaitingInput) ? ['(* waiting for input)'] : [];
  return [header, ...rows, ...waiting].join('\n');
}

/**
 * An agent's spend in a list: `4300 tok $0.0140`, `4300 tok cost unknown` when a model had no
 * price (never $0), `-` before anything was recorded.
 */
export function formatSpend(spend: AgentSummary['spend']): string {
  if (spend === undefined) return '-';
  const cost = spend.costUsd === null ? 'cost unknown' : `$${spend.costUsd.toFixed(4)}`;
  return `${spend.tokens} tok ${cost}`;
}

/**
 * An agent's state for people: phase, steps with status (as client/status-display.ts reads it:
 * a running step of a held agent is `paused`, a pending one of an ended agent `not run`), a
 * graph agent's path (its steps are its visits), open interactions, result or error.
 */
export function formatState(id: string, state: AgentState): string {
  // A graph agent has no plan to revise: its graph's name stands where the revision would.
  const shape = state.graph ? `graph ${state.graph.name}` : `revision ${state.revision}`;
  const lines = [`${id}  ${state.phase}  ${shape}`, `task: ${state.task}`];
  for (const step of state.steps) {
    const detail = step.error ?? step.result ?? '';
    const status = stepDisplayStatus(step, state);
    lines.push(`  ${status.padEnd(9)} [${step.id}] ${step.title}${detail ? ` — ${oneLine(detail)}` : ''}`);
  }
  const path = formatGraphPath(state);
  if (path !== undefined) lines.push(path);
  for (const interaction of state.interactions.filter((i) => i.status === 'open')) {
    lines.push(`  open ${formatInteractionHeading(interaction)}`);
  }
  lines.push(`usage: ${formatUsage(state.usage)}`);
  if (state.result !== undefined) lines.push('', state.result);
  if (state.error !== undefined) lines.push(`error: ${state.error}`);
  return lines.join('\n');
}

/** The first line of `text`, cut to `max` characters. */
function oneLine(text: string, max = 80): string {
  const first = text.split('\n')[0] ?? '';
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}
