/**
 * A cancelled step's partial result (what its model said and its tools answered, latest last,
 * bounded), how a stopped agent's mechanical summary shows it, and the budget arithmetic a
 * step uses to give a nested agent what is left.
 */
import { asLimits, budgetLeft, isSpent, lessSpent } from '../../workflows/model/llm/budget-left';
import { mechanicalSummary } from '../../workflows/model/agent/prompts';
import type { LlmMessage } from '../../workflows/model/llm/llm-types';
import { MAX_PARTIAL_CHARS } from '../../workflows/contract/messages';
import { partialResult } from '../../workflows/step/partial-result';

const opening: LlmMessage[] = [
  { role: 'system', content: 'You are the executor…' },
  { role: 'user', content: 'Step: find the value' },
];

test('a step that did nothing yet has no partial result', () => {
  expect(partialResult(opening)).toBeUndefined();
});

test('the partial result is the model text and the tool results, in order, each tool named', () => {
  const messages: LlmMessage[] = [
    ...opening,
    {
      role: 'assistant',
      content: 'Reading the table first.',
      toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{}' }],
    },
    { role: 'tool', toolCallId: 'c1', content: 'value-of-k1' },
    { role: 'user', content: 'a note to the model' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'c2', name: 'model', arguments: '{}' }] },
  ];
  expect(partialResult(messages)).toBe(
    ['Reading the table first. (called lookup)', 'lookup → value-of-k1', '(called model)'].join('\n'),
  );
});

test('a long conversation keeps its latest lines, within the bound, marked where it was cut', () => {
  const rounds: LlmMessage[] = Array.from({ length: 20 }, (_, i): LlmMessage[] => [
    {
      role: 'assistant',
      content: `thought ${i} ${'x'.repeat(300)}`,
      toolCalls: [{ id: `c${i}`, name: 'lookup', arguments: '{}' }],
    },
    { role: 'tool', toolCallId: `c${i}`, content: `answer ${i} ${'y'.repeat(2000)}` },
  ]).flat();
  const partial = partialResult([...opening, ...rounds]) ?? '';
  expect(partial.length).toBeLessThanOrEqual(MAX_PARTIAL_CHARS);
  expect(partial.startsWith('…\n')).toBe(true);
  expect(partial).toContain('answer 19');
  expect(partial).not.toContain('thought 0 ');
});

test('the mechanical summary shows a cancelled step’s partial result, marked as partial', () => {
  const summary = mechanicalSummary([
    { id: 'a', title: 'Step a', status: 'completed', result: 'result-a' },
    { id: 'b', title: 'Step b', status: 'cancelled', error: 'cancelled', partial: 'lookup → value-of-k1' },
    { id: 'c', title: 'Step c', status: 'cancelled', error: 'cancelled' },
  ]);
  expect(summary).toBe(
    [
      '### Step a (completed)\nresult-a',
      '### Step b (cancelled, partial result)\nlookup → value-of-k1',
      '### Step c (cancelled)\ncancelled',
    ].join('\n\n'),
  );
});

test('the budget left, less what a step spent since, and as a nested agent’s limits', () => {
  const used = { promptTokens: 5, completionTokens: 5, totalTokens: 10, costUsd: 0.5 };
  expect(budgetLeft(used)).toBeUndefined();
  const left = budgetLeft(used, 100, 2);
  expect(left).toEqual({ tokens: 90, costUsd: 1.5 });
  // An unknown cost never reaches the cost budget: nothing of it is passed down.
  expect(budgetLeft({ ...used, costUsd: null }, 100, 2)).toEqual({ tokens: 90 });
  const after = lessSpent(left ?? {}, { ...used, totalTokens: 30, costUsd: null });
  expect(after).toEqual({ tokens: 60, costUsd: 1.5 });
  expect(isSpent(after)).toBe(false);
  expect(asLimits(after)).toEqual({ tokenBudget: 60, costBudgetUsd: 1.5 });
  const spent = lessSpent(after, { ...used, totalTokens: 60 });
  expect(isSpent(spent)).toBe(true);
  expect(asLimits({ tokens: -5, costUsd: -1 })).toEqual({ tokenBudget: 1, costBudgetUsd: 1e-9 });
});
