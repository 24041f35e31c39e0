/** Finding the first non-finite number in an answer, by path. */
import { nonFiniteNumberPath } from '../../client/agents/non-finite-number';

test.each([
  [{ values: { n: Infinity } }, 'answer.values.n'],
  [{ values: { a: 1, list: [2, -Infinity] } }, 'answer.values.list.1'],
  [{ tokenBudget: Number.NaN }, 'answer.tokenBudget'],
  [Infinity, 'answer'],
])('%p → %s', (value, path) => {
  expect(nonFiniteNumberPath(value, 'answer')).toBe(path);
});

test.each([[{ values: { n: 1e308, m: -0, s: 'Infinity' } }], [null], ['text'], [[1, 2, 3]]])(
  'finds nothing in %p',
  (value) => {
    expect(nonFiniteNumberPath(value, 'answer')).toBeUndefined();
  },
);
