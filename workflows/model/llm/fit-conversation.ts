/**
 * Conversations cut to fit a model's context window, by token estimate: the head (system
 * prompt and task) is always kept, then as many of the most recent rounds as fit, never
 * splitting an assistant message from the tool results that answer its calls, with a note
 * saying what was cut. Without it a long step overflows a small model's context (the endpoint
 * answers 400 "exceeds the available context size" and the step fails). Pure, so the same
 * cut on replay; steps apply it before each model call, and the planner may use it too.
 */
import type { LlmMessage, ModelSettings } from './llm-types';

/**
 * The context window assumed when the model settings name none: a middle ground between hosted
 * models (128k and more: long steps are cut earlier than needed, never failed) and small local
 * servers (a smaller window must be set in `model.contextTokens`, or the endpoint's overflow
 * answer fails the call with LLM_CONTEXT_EXCEEDED, saying so).
 */
export const DEFAULT_CONTEXT_TOKENS = 32_768;

/**
 * Tokens kept free for the reply when the model settings set no `maxTokens`: the step's default
 * `max_tokens` (activities/llm/max-tokens.ts; a unit test keeps the two equal).
 */
export const DEFAULT_REPLY_TOKENS = 4096;

/**
 * Characters per token of the estimate: English prose runs about 4, JSON, code and other
 * languages denser, so 3 errs on the side of cutting a little early rather than overflowing.
 */
const CHARS_PER_TOKEN = 3;

/** What a chat template adds around every message (role markers, separators). */
const MESSAGE_OVERHEAD_TOKENS = 4;

/** How many leading messages are always kept (system prompt, task). */
const HEAD = 2;

/** The estimated tokens of `text`. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The estimated tokens of one message as the model reads it. */
export function estimateMessageTokens(message: LlmMessage): number {
  const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
  const text = (message.content ?? '') + calls.map((c) => c.name + c.arguments).join('');
  return estimateTextTokens(text) + MESSAGE_OVERHEAD_TOKENS * (1 + calls.length);
}

/** The estimated tokens of a conversation. */
export function estimateTokens(messages: LlmMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
}

/**
 * The tokens a request's conversation may take: the model's context (`contextTokens`, else
 * DEFAULT_CONTEXT_TOKENS) less the reply's room (`maxTokens`, else DEFAULT_REPLY_TOKENS) and
 * `overheadTokens` (e.g. the offered tools' schemas), but never under a quarter of the context.
 */
export function conversationBudget(model: ModelSettings | undefined, overheadTokens = 0): number {
  const context = model?.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  const reply = Math.min(model?.maxTokens ?? DEFAULT_REPLY_TOKENS, Math.floor(context / 2));
  return Math.max(Math.floor(context / 4), context - reply - overheadTokens);
}

/** A conversation as sent: the messages, and how many of the original were left out. */
export interface FittedConversation {
  messages: LlmMessage[];
  /** Messages of the original left out (0: `messages` is the original itself). */
  cut: number;
}

/** The note standing in for the cut messages. */
export function cutNote(cut: number, tokens: number): string {
  return (
    `[${cut} earlier messages of this conversation (about ${tokens} tokens) were cut to fit the model's context window. ` +
    'The system prompt, the task and the most recent rounds are kept; repeat a tool call if you need its result again.]'
  );
}

/** Splits the messages after the head into rounds: an assistant message with the tool results after it. */
function roundsOf(messages: LlmMessage[]): LlmMessage[][] {
  const rounds: LlmMessage[][] = [];
  for (const message of messages) {
    const last = rounds[rounds.length - 1];
    if (message.role === 'tool' && last) last.push(message);
    else rounds.push([message]);
  }
  return rounds;
}

/**
 * `messages` whole when their estimate fits `budgetTokens`; else the head, a note and as many
 * of the latest rounds as fit — at least the last one, which the next reply answers. The
 * note goes into the task message when that is a user message (templates that insist on
 * alternating user and assistant turns accept it), else it is a user message of its own.
 */
export function fitConversation(messages: LlmMessage[], budgetTokens: number): FittedConversation {
  if (messages.length <= HEAD || estimateTokens(messages) <= budgetTokens) return { messages, cut: 0 };
  const head = messages.slice(0, HEAD);
  const rounds = roundsOf(messages.slice(HEAD));
  const noteRoom = estimateTextTokens(cutNote(messages.length, budgetTokens)) + MESSAGE_OVERHEAD_TOKENS;
  let room = budgetTokens - estimateTokens(head) - noteRoom;
  let first = rounds.length;
  while (first > 0) {
    const round = rounds[first - 1] ?? [];
    const tokens = estimateTokens(round);
    if (first < rounds.length && tokens > room) break;
    room -= tokens;
    first -= 1;
  }
  if (first === 0) return { messages, cut: 0 }; // only the head is over budget: nothing to cut
  const dropped = rounds.slice(0, first).flat();
  const kept = rounds.slice(first).flat();
  const note = cutNote(dropped.length, estimateTokens(dropped));
  const task = head[HEAD - 1];
  const withNote: LlmMessage[] =
    task?.role === 'user'
      ? [...head.slice(0, HEAD - 1), { role: 'user', content: `${task.content}\n\n${note}` }]
      : [...head, { role: 'user', content: note }];
  return { messages: [...withNote, ...kept], cut: dropped.length };
}
