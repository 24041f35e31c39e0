/**
 * What a cancelled step hands back as its partial result: the latest of what its model said
 * and what its tools answered, in order, cut to MAX_PARTIAL_CHARS (the oldest part goes first).
 * The system prompt and the task are left out — the agent knows them; and the last report it
 * sends with it. Pure.
 */
import { MAX_PARTIAL_CHARS, type StepProgress } from '../contract/messages';
import type { LlmMessage } from '../model/llm/llm-types';
import type { Unreported } from '../model/step/round-ledger';
import type { StepInput } from './step-types';

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

/** A cancelled step's last report — what it had, the usage and calls not yet reported — or undefined when it has none. */
export function cancelledReport(
  input: StepInput,
  conversation: LlmMessage[],
  round: number,
  { usage, toolCalls }: Unreported,
): StepProgress | undefined {
  const partial = partialResult(conversation);
  const unreported = usage.totalTokens > 0 || (usage.costUsd ?? 0) > 0;
  if (partial === undefined && !unreported && toolCalls.length === 0) return undefined;
  return {
    stepId: input.step.id,
    round,
    usage,
    // The unfinished round's calls that did finish: the audit and the decision log keep them.
    toolCalls,
    cancelled: true,
    ...(partial !== undefined ? { partial } : {}),
  };
}
