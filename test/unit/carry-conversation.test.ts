/** What of a conversation crosses continue-as-new: all of it when small, else head + note + whole recent rounds. */
import { CARRY_NOTE, carryConversation } from '../../workflows/model/rollover/carry-conversation';
import type { LlmMessage } from '../../workflows/model/llm/llm-types';

const opening: LlmMessage[] = [
  { role: 'system', content: 'you are a step' },
  { role: 'user', content: 'do the task' },
];

/** `count` rounds of an assistant tool call and its `size`-character result. */
function rounds(count: number, size: number): LlmMessage[] {
  return Array.from({ length: count }, (_, i): LlmMessage[] => [
    { role: 'assistant', content: null, toolCalls: [{ id: `c${i}`, name: 'lookup', arguments: `{"key":"k${i}"}` }] },
    { role: 'tool', toolCallId: `c${i}`, content: 'x'.repeat(size) },
  ]).flat();
}

const bytes = (messages: LlmMessage[]) => messages.reduce((sum, m) => sum + JSON.stringify(m).length, 0);

test('a conversation within the budget crosses whole', () => {
  const messages = [...opening, ...rounds(10, 100)];
  expect(carryConversation(messages, 10_000)).toEqual(messages);
});

test('a long conversation keeps its opening, a note and the newest rounds that fit', () => {
  const messages = [...opening, ...rounds(100, 1_000)];
  const carried = carryConversation(messages, 20_000);
  expect(bytes(carried)).toBeLessThanOrEqual(20_000);
  expect(carried.slice(0, 2)).toEqual(opening);
  expect(carried[2]).toEqual({ role: 'user', content: CARRY_NOTE });
  expect(carried.at(-1)).toEqual(messages.at(-1));
  // The tail is a suffix of the original that starts at an assistant message: no orphan tool result.
  const tail = carried.slice(3);
  expect(tail[0]?.role).toBe('assistant');
  expect(messages.slice(-tail.length)).toEqual(tail);
  expect(tail.length).toBeGreaterThan(20);
});

test('carrying a carried conversation again keeps one note', () => {
  const once = carryConversation([...opening, ...rounds(100, 1_000)], 20_000);
  const twice = carryConversation([...once, ...rounds(50, 1_000)], 20_000);
  expect(twice.filter((m) => m.role === 'user' && m.content === CARRY_NOTE)).toHaveLength(1);
  expect(bytes(twice)).toBeLessThanOrEqual(20_000);
});
