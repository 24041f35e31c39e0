/**
 * What of a conversation crosses continue-as-new (docs/architecture/continue-as-new.md). The new run receives it as
 * workflow input, so it must stay well under Temporal's payload limit however long the loop
 * ran: the opening messages (system prompt and task) are always kept, then as many of the
 * most recent messages as fit the byte budget, starting at a whole round (never a tool result
 * without the assistant message that called it), with a note saying how much was left out.
 * A model's context window would have overflowed long before, so nothing useful is lost.
 */
import type { LlmMessage } from '../llm/llm-types';

/** The byte budget of a carried conversation: a quarter of the 2 MiB payload limit. */
export const CARRY_BUDGET_BYTES = 512 * 1024;

/** How many leading messages are always kept (system prompt, task). */
const HEAD = 2;

/** Stands in for the messages left out. */
export const CARRY_NOTE = '[Earlier messages of this conversation were left out to keep it within bounds.]';

const size = (message: LlmMessage): number => JSON.stringify(message).length;

/** The conversation to carry: whole if it fits `budget`, else its head, a note and its tail. */
export function carryConversation(messages: LlmMessage[], budget = CARRY_BUDGET_BYTES): LlmMessage[] {
  const total = messages.reduce((sum, m) => sum + size(m), 0);
  if (total <= budget || messages.length <= HEAD) return messages;
  const head = messages.slice(0, HEAD);
  let room = budget - head.reduce((sum, m) => sum + size(m), 0) - 200; // the note's room
  let start = messages.length;
  while (start > HEAD) {
    const next = messages[start - 1];
    if (!next || room - size(next) < 0) break;
    room -= size(next);
    start -= 1;
  }
  // A tool message answers the assistant message before it: start the tail after any orphans.
  while (start < messages.length && messages[start]?.role === 'tool') start += 1;
  if (start === HEAD) return messages;
  const note: LlmMessage = { role: 'user', content: CARRY_NOTE };
  return [...head, note, ...messages.slice(start)];
}
