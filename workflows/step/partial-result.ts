/**
 * What a cancelled step hands back as its partial result: the latest of what its model said
 * and what its tools answered, in order, cut to MAX_PARTIAL_CHARS (the oldest part goes first).
 * The system prompt and the task are left out — the agent knows them. Pure.
 */
import { MAX_PARTIAL_CHARS } from '../contract/messages';
import type { LlmMessage } from '../llm-types';

/** How much of one message a partial result quotes. */
const MAX_ENTRY_CHARS = 600;

const MARK = '…';

/** `text` cut to `max` characters, marked where it was cut. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - MARK.length)}${MARK}` : text;
}

/** One line of the partial result for `message`, or undefined when it says nothing. */
function entry(message: LlmMessage, toolNames: Record<string, string>): string | undefined {
  if (message.role === 'assistant') {
    const said = message.content?.trim();
    const calls = (message.toolCalls ?? []).map((c) => c.name).join(', ');
    const text = [said, calls ? `(called ${calls})` : ''].filter(Boolean).join(' ');
    return text ? cut(text, MAX_ENTRY_CHARS) : undefined;
  }
  if (message.role === 'tool') {
    const content = message.content.trim();
    return content ? `${toolNames[message.toolCallId] ?? 'tool'} → ${cut(content, MAX_ENTRY_CHARS)}` : undefined;
  }
  return undefined; // system prompt, task, notes to the model
}

/** The partial result of a step whose conversation is `messages`; undefined when it had done nothing yet. */
export function partialResult(messages: readonly LlmMessage[]): string | undefined {
  const toolNames: Record<string, string> = {};
  for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) toolNames[c.id] = c.name;
  const lines: string[] = [];
  let length = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    const line = message && entry(message, toolNames);
    if (line === undefined) continue;
    // Room is kept for the mark that says older lines were left out.
    if (length + line.length + 1 > MAX_PARTIAL_CHARS - MARK.length - 1) {
      if (lines.length === 0) lines.unshift(cut(line, MAX_PARTIAL_CHARS));
      else lines.unshift(MARK);
      break;
    }
    lines.unshift(line);
    length += line.length + 1;
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}
