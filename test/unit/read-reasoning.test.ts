/**
 * The reasoning summary a step call's result carries for the step's transcript
 * (activities/llm/read-completion.ts `readReasoning`): `reasoning_content` (or `reasoning`) first,
 * else the content's `<think>` blocks, cut to its first and last characters; none without reasoning.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { readReasoning } from '../../activities/llm/read-completion';
import { REASONING_CHARS } from '../../workflows/contract/transcript-bounds';

const message = (content: string | null, extra: Record<string, unknown> = {}) =>
  ({ role: 'assistant', content, refusal: null, ...extra }) as ChatCompletion.Choice['message'];

test('reasoning_content or reasoning first, else <think> blocks, else none', () => {
  expect(readReasoning(message('<think>inline</think> answer', { reasoning_content: 'separate' }))).toBe('separate');
  expect(readReasoning(message('answer', { reasoning: 'vllm style' }))).toBe('vllm style');
  expect(readReasoning(message('<think>first</think> a <think>second</think> b'))).toBe('first\nsecond');
  expect(readReasoning(message('<think>cut mid-thought'))).toBe('cut mid-thought');
  expect(readReasoning(message('just an answer'))).toBeUndefined();
  expect(readReasoning(message(null, { reasoning_content: '  ' }))).toBeUndefined();
});

test('long reasoning keeps its first and last characters', () => {
  const long = `${'a'.repeat(REASONING_CHARS)}${'z'.repeat(REASONING_CHARS)}`;
  const summary = readReasoning(message('x', { reasoning_content: long })) ?? '';
  expect(summary.startsWith('a'.repeat(REASONING_CHARS / 2))).toBe(true);
  expect(summary.endsWith('z'.repeat(REASONING_CHARS / 2))).toBe(true);
  expect(summary.length).toBeLessThan(REASONING_CHARS + 50);
});
