/**
 * What the `thread` query answers, from a run's parts. Pure. The title is the `title` call's
 * (thread-title.ts), else the first message, cut. The answer is bounded whatever the thread
 * holds: a page of turns (the newest DEFAULT_VIEW_TURNS unless asked otherwise), each message's
 * text cut past VIEW_TEXT_CHARS — the whole of one is the `message` query's — so no thread
 * grows its query's answer past what the server passes back.
 */
import {
  DEFAULT_VIEW_TURNS,
  threadPageSchema,
  VIEW_TEXT_CHARS,
  type ThreadView,
  type Turn,
  type TurnsSummary,
  type TurnView,
} from './thread-schemas';
import type { TokenUsage } from '../llm/llm-types';
import { definitionOfSnapshot, type ThreadAgent } from '../agent/definition-snapshot';

/** The longest title. */
export const TITLE_CHARS = 80;

/** `text` cut to a title's length. */
export const cutTitle = (text: string): string =>
  text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;

/** The title without the model: the first line of the first message, cut. */
export function mechanicalTitle(first: string): string {
  return cutTitle(first.trim().split('\n')[0]?.trim() ?? '');
}

/** A turn as the query shows it: its text cut past VIEW_TEXT_CHARS, with the whole text's length. */
export function turnView(turn: Turn): TurnView {
  if (turn.text.length <= VIEW_TEXT_CHARS) return turn;
  return { ...turn, text: `${turn.text.slice(0, VIEW_TEXT_CHARS)}…`, textChars: turn.text.length };
}

/**
 * The page of `turns` asked for: the newest `limit` (DEFAULT_VIEW_TURNS) before message `before`
 * (an id no turn has: none), and how many older ones it leaves out. A page that does not parse
 * (from a caller other than Cairn's) is the default one.
 */
export function pageOf(turns: readonly Turn[], page: unknown): { shown: Turn[]; older: number } {
  const parsed = threadPageSchema.safeParse(page ?? {});
  const { before, limit = DEFAULT_VIEW_TURNS } = parsed.success ? parsed.data : {};
  const end =
    before === undefined
      ? turns.length
      : Math.max(
          0,
          turns.findIndex((t) => t.messageId === before),
        );
  const start = Math.max(0, end - limit);
  return { shown: turns.slice(start, end), older: start };
}

/** The thread as the query shows it: a page of its turns (`page`, see pageOf), their texts cut. */
export function threadView(
  id: string,
  turns: Turn[],
  usage: TokenUsage,
  closedReason?: string,
  memory: { title?: string | undefined; summary?: TurnsSummary | undefined } = {},
  page?: unknown,
  agent?: ThreadAgent,
): ThreadView {
  const { title, summary } = memory;
  const { shown, older } = pageOf(turns, page);
  return {
    id,
    title: title ?? mechanicalTitle(turns[0]?.text ?? ''),
    status: closedReason === undefined ? 'open' : 'closed',
    ...(closedReason !== undefined ? { closedReason } : {}),
    turns: shown.map(turnView),
    ...(older > 0 ? { olderTurns: older } : {}),
    ...(summary ? { summary } : {}),
    usage,
    ...(agent ? { definition: definitionOfSnapshot(agent.definition) } : {}),
  };
}
