/**
 * Keeping a thread bounded for weeks: once the settled turns at its start hold more than the
 * thread's `compressAtChars` characters (messages, replies, step titles and results), the oldest
 * are folded into its summary, keeping the newest up to half of the threshold (and always the
 * newest turn: a follow-up may reuse it). One `compress` call merges the summary so far with the
 * folded turns, its usage counted in the thread's budget; when the budget is spent, or the call
 * fails or says nothing, a mechanical summary (each turn cut to a line or two) stands in, with no
 * call. A rejected message counts nothing toward the threshold: refused messages cost the thread
 * no model call, not even a fold's. The folded turns leave the run
 * (and so the carry and the `thread` query); later chat replies and task turns get the summary
 * first, then the turns kept (thread-context.ts).
 */
import { llmCall } from '../runtime/activity-proxies';
import type { Turn, TurnsSummary } from '../contract/thread-contract';
import type { LlmMessage } from '../model/llm/llm-types';
import { render } from '../model/prompts/templates';
import type { ThreadCalls } from './thread-calls';
import { turnText } from '../model/thread/thread-context';

/** The most characters of a summary: older lines of a mechanical one go first. */
export const MAX_SUMMARY_CHARS = 4_000;

/** The most characters of a message or a reply in a mechanical summary. */
const MECHANICAL_PART_CHARS = 200;

/** Turns still in motion, never folded. */
const settled = (turn: Turn): boolean => !['routing', 'queued', 'running'].includes(turn.status);

/**
 * A turn's size as the threshold counts it: its message, reply, and steps' titles and results;
 * nothing for a rejected message (it never reached a model, and folds with the turns around it).
 */
export function turnChars(turn: Turn): number {
  if (turn.status === 'rejected') return 0;
  const steps = (turn.steps ?? []).reduce((n, s) => n + s.title.length + (s.result?.length ?? 0), 0);
  return turn.text.length + (turn.reply?.length ?? 0) + steps;
}

/**
 * How many of the oldest turns to fold: none while the settled turns at the start hold at most
 * `atChars`; past it, the oldest until what is left of them holds at most half of `atChars` —
 * never the thread's newest turn, however large: the next message may reuse its steps and
 * approvals, which a summary cannot lend.
 */
export function foldCount(turns: readonly Turn[], atChars: number): number {
  const end = turns.findIndex((t) => !settled(t));
  const prefix = end < 0 ? turns : turns.slice(0, end);
  let left = prefix.reduce((n, t) => n + turnChars(t), 0);
  if (left <= atChars) return 0;
  let count = 0;
  for (const turn of end < 0 ? prefix.slice(0, -1) : prefix) {
    if (left <= atChars / 2) break;
    left -= turnChars(turn);
    count++;
  }
  return count;
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The summary without the model: the summary so far, then a line or two per folded turn, newest kept. */
export function mechanicalSummary(previous: string | undefined, folded: readonly Turn[]): string {
  const lines = previous ? previous.split('\n') : [];
  for (const turn of folded) {
    const steps = (turn.steps ?? []).map((s) => s.title).join('; ');
    lines.push(`[${turn.messageId}] ${turn.by ?? 'user'}: ${cut(turn.text, MECHANICAL_PART_CHARS)}`);
    if (steps) lines.push(`  steps: ${cut(steps, MECHANICAL_PART_CHARS)}`);
    if (turn.reply !== undefined) lines.push(`  reply: ${cut(turn.reply, MECHANICAL_PART_CHARS)}`);
  }
  while (lines.length > 1 && lines.join('\n').length > MAX_SUMMARY_CHARS) lines.shift();
  return cut(lines.join('\n'), MAX_SUMMARY_CHARS);
}

/** The `compress` request: the instructions, then the summary so far and the folded turns. */
export function compressMessages(previous: string | undefined, folded: readonly Turn[]): LlmMessage[] {
  const turns = folded.map(turnText).join('\n');
  return [
    { role: 'system', content: render('thread.compress.system') },
    { role: 'user', content: render('thread.compress.turns', { summary: previous ?? '(none)', turns }) },
  ];
}

/**
 * The summary with `folded` merged in: the `compress` call's text, else (the thread's budget is
 * spent, so no call is made; or the call failed for good, or answered nothing) the mechanical one.
 */
export async function compressTurns(
  calls: ThreadCalls,
  previous: TurnsSummary | undefined,
  folded: readonly Turn[],
): Promise<TurnsSummary> {
  const last = folded.at(-1)?.messageId ?? previous?.through ?? '';
  const covering = (text: string): TurnsSummary => ({
    text,
    turns: (previous?.turns ?? 0) + folded.length,
    through: last,
  });
  if (calls.budgetSpent()) return covering(mechanicalSummary(previous?.text, folded));
  try {
    const reply = await llmCall(`${last} · compress`, {
      purpose: 'compress',
      ownerId: calls.ownerId,
      messages: compressMessages(previous?.text, folded),
      ...(calls.model ? { model: calls.model } : {}),
    });
    calls.spent(reply.usage);
    const text = reply.content?.trim() ?? '';
    if (text.length > 0) return covering(cut(text, MAX_SUMMARY_CHARS));
  } catch {
    // Failed for good (its retries spent): the mechanical summary keeps the thread going.
  }
  return covering(mechanicalSummary(previous?.text, folded));
}
