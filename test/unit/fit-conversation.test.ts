/**
 * Conversations cut to fit the model's context by token estimate: whole when they fit, else
 * system prompt + task (with a note saying what was cut) + the newest whole rounds.
 */
import {
  conversationBudget,
  DEFAULT_CONTEXT_TOKENS,
  DEFAULT_REPLY_TOKENS,
  estimateTokens,
  fitConversation,
} from '../../workflows/model/llm/fit-conversation';
import type { LlmMessage } from '../../workflows/model/llm/llm-types';
import { DEFAULT_MAX_TOKENS } from '../../activities/llm/max-tokens';

const opening: LlmMessage[] = [
  { role: 'system', content: 'you are a step' },
  { role: 'user', content: 'do the task' },
];

/** `count` rounds of an assistant message with `calls` tool calls, each answered with `size` characters. */
function rounds(count: number, size: number, calls = 1): LlmMessage[] {
  return Array.from({ length: count }, (_, i): LlmMessage[] => {
    const ids = Array.from({ length: calls }, (_, c) => `c${i}-${c}`);
    return [
      {
        role: 'assistant',
        content: null,
        toolCalls: ids.map((id) => ({ id, name: 'lookup', arguments: `{"key":"${id}"}` })),
      },
      ...ids.map((id): LlmMessage => ({ role: 'tool', toolCallId: id, content: 'x'.repeat(size) })),
    ];
  }).flat();
}

test('a conversation within the budget is sent as it is (the same array)', () => {
  const messages = [...opening, ...rounds(10, 100)];
  const fitted = fitConversation(messages, 10_000);
  expect(fitted).toEqual({ messages, cut: 0 });
  expect(fitted.messages).toBe(messages);
});

test('a long conversation keeps system prompt and task, notes the cut in the task, and ends with the newest rounds', () => {
  const messages = [...opening, ...rounds(100, 900, 2)];
  const fitted = fitConversation(messages, 4_000);
  expect(estimateTokens(fitted.messages)).toBeLessThanOrEqual(4_000);
  expect(fitted.messages[0]).toEqual(opening[0]);
  const task = fitted.messages[1];
  expect(task?.role).toBe('user');
  expect(task?.content).toMatch(
    /^do the task\n\n\[\d+ earlier messages of this conversation \(about \d+ tokens\) were cut/,
  );
  const tail = fitted.messages.slice(2);
  expect(tail[0]?.role).toBe('assistant');
  expect(messages.slice(-tail.length)).toEqual(tail);
  expect(fitted.cut).toBe(messages.length - 2 - tail.length);
  expect(task?.content).toContain(`[${fitted.cut} earlier messages`);
  // Every tool result is sent with the assistant message that called it, and every call with its result.
  const called = new Set(tail.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])));
  const answered = new Set(tail.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  expect(answered).toEqual(called);
});

test('the newest round is always sent, even when it alone is over the budget', () => {
  const messages = [...opening, ...rounds(5, 100), ...rounds(1, 30_000)];
  const fitted = fitConversation(messages, 2_000);
  expect(fitted.messages.slice(2)).toEqual(messages.slice(-2));
  expect(fitted.cut).toBe(10);
});

test('without a user task message the note is a user message of its own', () => {
  const messages: LlmMessage[] = [opening[0] as LlmMessage, ...rounds(50, 500)];
  const fitted = fitConversation(messages, 1_000);
  expect(fitted.messages[2]?.role).toBe('user');
  expect(fitted.messages[2]?.content).toMatch(/were cut/);
  expect(fitted.messages[3]?.role).toBe('assistant');
});

test('cutting is deterministic and leaves the original untouched', () => {
  const messages = [...opening, ...rounds(40, 700)];
  const copy = structuredClone(messages);
  expect(fitConversation(messages, 3_000)).toEqual(fitConversation(copy, 3_000));
  expect(messages).toEqual(copy);
});

test('the budget: context less the reply and the tools, never under a quarter of the context', () => {
  expect(conversationBudget(undefined)).toBe(DEFAULT_CONTEXT_TOKENS - DEFAULT_REPLY_TOKENS);
  expect(conversationBudget({ contextTokens: 32_000, maxTokens: 2_000 }, 1_000)).toBe(29_000);
  expect(conversationBudget({ contextTokens: 4_096, maxTokens: 100_000 }, 0)).toBe(2_048);
  expect(conversationBudget({ contextTokens: 4_096 }, 10_000)).toBe(1_024);
});

test("the reply's room when the model sets no maxTokens is the step's default max_tokens", () => {
  expect(DEFAULT_REPLY_TOKENS).toBe(DEFAULT_MAX_TOKENS.step);
});
