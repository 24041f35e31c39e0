/** Which benchmarks a run of `npm run bench -- <numbers>` runs. Pure. */

/**
 * The benchmarks named by number (`1`, `3`; all of them when none is named), in their order. A
 * number that names none throws, so a typo never becomes a run of nothing that exits 0.
 */
export function chooseBenchmarks<T extends readonly [string, ...unknown[]]>(only: string[], all: readonly T[]): T[] {
  const numberOf = (name: string) => name.split('.')[0] ?? name;
  const unknown = only.filter((n) => !all.some(([name]) => numberOf(name) === n));
  if (unknown.length > 0) {
    throw new Error(
      `no benchmark numbered ${unknown.join(', ')} (there are ${all.map(([n]) => numberOf(n)).join(', ')})`,
    );
  }
  return all.filter(([name]) => only.length === 0 || only.includes(numberOf(name)));
}
