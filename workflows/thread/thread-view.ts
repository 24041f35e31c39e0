/**
 * What the `thread` query answers, from a run's parts. Pure. The title is the first message, cut
 * (a model-written title comes later).
 */
import type { ThreadView, Turn } from '../contract/thread-contract';
import type { TokenUsage } from '../llm-types';

/** The longest title taken from the first message. */
const TITLE_CHARS = 80;

/** The thread as the query shows it. */
export function threadView(id: string, turns: Turn[], usage: TokenUsage, closedReason?: string): ThreadView {
  const first = turns[0]?.text ?? '';
  return {
    id,
    title: first.length > TITLE_CHARS ? `${first.slice(0, TITLE_CHARS - 1)}…` : first,
    status: closedReason === undefined ? 'open' : 'closed',
    ...(closedReason !== undefined ? { closedReason } : {}),
    turns,
    usage,
  };
}
