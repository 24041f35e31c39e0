/**
 * Whether a conversation Cairn sends is clean by the Chat Completions protocol, whatever the
 * model did before: every assistant tool call has an id, a name and arguments that are a JSON
 * object, and is answered by a `tool` message with its id before the conversation goes on; no
 * `tool` message answers a call that was not made. A weak model's malformed call must reach the
 * next request cleaned (its arguments kept as `{}`), never as it came. Pure.
 */
import { z } from 'zod';

const toolCallSchema = z.looseObject({
  id: z.string().optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.unknown() }).optional(),
});

const messageSchema = z.looseObject({
  role: z.string(),
  tool_calls: z.array(toolCallSchema).nullable().optional(),
  tool_call_id: z.string().optional(),
});

/** What a request's conversation holds: the tool calls in it, and what breaks the protocol. */
export interface ConversationReport {
  toolCalls: number;
  faults: string[];
}

function argumentsFault(args: unknown): string | undefined {
  if (typeof args !== 'string') return 'arguments that are not a string';
  try {
    const value: unknown = JSON.parse(args);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? undefined
      : 'arguments that are not a JSON object';
  } catch {
    return 'arguments that are not JSON';
  }
}

/** Checks the `messages` of one request. */
export function checkConversation(messages: unknown[]): ConversationReport {
  const faults: string[] = [];
  let toolCalls = 0;
  let unanswered: string[] = [];
  messages.forEach((raw, index) => {
    const parsed = messageSchema.safeParse(raw);
    if (!parsed.success) {
      faults.push(`message ${index}: not a chat message`);
      return;
    }
    const message = parsed.data;
    if (message.role === 'tool') {
      const id = message.tool_call_id ?? '';
      if (!unanswered.includes(id)) faults.push(`message ${index}: a tool result for no open call (${id || 'no id'})`);
      unanswered = unanswered.filter((open) => open !== id);
      return;
    }
    if (unanswered.length > 0) faults.push(`message ${index}: calls left unanswered (${unanswered.join(', ')})`);
    unanswered = [];
    for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
      toolCalls += 1;
      if (!call.id) faults.push(`message ${index}: a tool call without an id`);
      if (!call.function?.name) faults.push(`message ${index}: a tool call without a name`);
      const fault = argumentsFault(call.function?.arguments);
      if (fault) faults.push(`message ${index}: a tool call (${call.function?.name ?? '?'}) with ${fault}`);
      if (call.id) unanswered.push(call.id);
    }
  });
  // Calls of the last assistant message are what this request asks about: they may be open only
  // if nothing follows, which a request never does (it ends with a user or tool message).
  if (unanswered.length > 0) faults.push(`the conversation ends with calls unanswered (${unanswered.join(', ')})`);
  return { toolCalls, faults };
}
