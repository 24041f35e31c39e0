/**
 * A thread as the Temporal UI shows it (its current details, Markdown): the title, its newest
 * turns — each message's status, kind, sender, and a task turn's agent — and what it waits on: a
 * running turn's agent and the messages queued behind it, a message being routed, or the next
 * message. Pure, so a thread's details are a function of its state.
 */
import type { Turn, TurnStatus } from './thread-schemas';

/** How many of the newest turns the details list. */
export const DETAILS_TURNS = 10;
/** The longest message text a line shows. */
const TEXT_CHARS = 60;

const MARK: Record<TurnStatus, string> = {
  routing: '◌',
  queued: '○',
  running: '◔',
  completed: '●',
  failed: '✕',
  stopped: '■',
  cancelled: '⊘',
  delivered: '↳',
  rejected: '–',
};

/** What the thread is doing now. */
export type ThreadActivity =
  | { name: 'idle' }
  | { name: 'routing'; messageId: string }
  | { name: 'turn'; messageId: string; agentId: string }
  | { name: 'closed'; reason: string };

/** `text` on one line, cut past TEXT_CHARS. */
function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TEXT_CHARS ? `${line.slice(0, TEXT_CHARS - 1)}…` : line;
}

/** One turn's line: its mark, message id, kind or status, sender, agent and text. */
function turnLine(turn: Turn): string {
  const what = turn.kind ?? turn.status;
  const by = turn.by ? ` · ${turn.by}` : '';
  const agent = turn.agentId ? ` → \`${turn.agentId}\`` : '';
  return `- ${MARK[turn.status]} ${turn.messageId} ${what}${by}${agent}: ${cut(turn.text)}`;
}

/** The line saying what the thread waits on. */
function waitingLine(activity: ThreadActivity, queued: number): string {
  const behind = queued > 0 ? ` (${queued} message${queued === 1 ? '' : 's'} queued behind it)` : '';
  switch (activity.name) {
    case 'turn':
      return `Waiting on: its running turn ${activity.messageId}, agent \`${activity.agentId}\`${behind}`;
    case 'routing':
      return `Waiting on: ${activity.messageId} being answered or started${behind}`;
    case 'closed':
      return `Closed: ${activity.reason}`;
    case 'idle':
      return queued > 0 ? `Waiting on: the next of ${queued} queued messages` : 'Waiting on: the next message';
  }
}

/** The thread's current details. */
export function threadDetails(title: string, turns: readonly Turn[], activity: ThreadActivity): string {
  const queued = turns.filter((t) => t.status === 'queued').length;
  const shown = turns.slice(-DETAILS_TURNS);
  const older = turns.length - shown.length;
  return [
    `**${title}** · ${turns.length} turn${turns.length === 1 ? '' : 's'}`,
    ...(older > 0 ? [`(${older} older not shown)`] : []),
    ...shown.map(turnLine),
    '',
    waitingLine(activity, queued),
  ].join('\n');
}
