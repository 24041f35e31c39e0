/**
 * `npm run bench -- <numbers>` runs the benchmarks named, and refuses a number that names none
 * (it used to run nothing and exit 0).
 */
import { chooseBenchmarks } from '../../bench/choose';

const ALL = [['1. Durability tax'], ['2. Parallel efficiency'], ['12. Later']] as const;

test('the benchmarks named run in their order; none named runs them all', () => {
  expect(chooseBenchmarks(['12', '1'], ALL)).toEqual([['1. Durability tax'], ['12. Later']]);
  expect(chooseBenchmarks([], ALL)).toEqual(ALL);
});

test('a number that names no benchmark is refused, saying which exist', () => {
  expect(() => chooseBenchmarks(['7'], ALL)).toThrow('no benchmark numbered 7 (there are 1, 2, 12)');
  expect(() => chooseBenchmarks(['1', 'durability'], ALL)).toThrow('no benchmark numbered durability');
});
