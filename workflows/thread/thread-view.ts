/**
 * What the `thread` query answers, from a run's parts. Pure. The title is the `title` call's
 * (thread-title.ts), else the first message, cut.
 */
import type { ThreadView, Turn, TurnsSummary } from '../contract/thread-contract';
import type { TokenUsage } from '../llm-types';

/** The longest title. */
export const TITLE_CHARS = 80;

/** `text` cut to a title's length. */
export const cutTitle = (text: string): string =>
  text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;

/** The title without the model: the first line of the first message, cut. */
export function mechanicalTitle(first: string): string {
  return cutTitle(first.trim().split('\n')[0]?.trim() ?? '');
}

/** The thread as the query shows it. */
export function threadView(
  id: string,
  turns: Turn[],
  usage: TokenUsage,
  closedReason?: string,
  memory: { title?: string | undefined; summary?: TurnsSummary | undefined } = {},
): ThreadView {
  const { title, summary } = memory;
  return {
    id,
    title: title ?? mechanicalTitle(turns[0]?.text ?? ''),
    status: closedReason === undefined ? 'open' : 'closed',
    ...(closedReason !== undefined ? { closedReason } : {}),
    turns,
    ...(summary ? { summary } : {}),
    usage,
  };
}
