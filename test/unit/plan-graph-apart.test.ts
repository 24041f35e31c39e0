/**
 * `workflows/model/plan/` and `workflows/model/graph/` import nothing of each other, directly or through any
 * other module: a plan is walked as a graph through `workflows/model/plan-as-graph.ts`, which sits
 * beside both, and what both use (the step id, reachability, reading a model's JSON reply) sits
 * beside them too. Every import form counts, type-only ones included.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
/** Where plan/ and graph/ live, and plan-as-graph.ts beside both. */
const WORKFLOWS = join(ROOT, 'workflows', 'model');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The project files `file` imports (relative specifiers only: packages are not followed). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith('.')) return [];
    const base = resolve(dirname(file), fileName);
    const found = [`${base}.ts`, join(base, 'index.ts'), base].find((path) => existsSync(path) && path.endsWith('.ts'));
    return found ? [found] : [];
  });
}

/** For each file reached from `start`, the chain of imports that reached it. */
function reached(start: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of importsOf(file)) {
      if (chains.has(next)) continue;
      chains.set(next, [...(chains.get(file) ?? []), next]);
      queue.push(next);
    }
  }
  return chains;
}

/** Each file of `from` that reaches a file of `to`, with the chain, as readable lines. */
function crossings(from: string, to: string): string[] {
  const into = join(WORKFLOWS, to) + '/';
  return filesUnder(join(WORKFLOWS, from)).flatMap((file) =>
    [...reached(file)]
      .filter(([target]) => target.startsWith(into))
      .slice(0, 1)
      .map(([, chain]) => chain.map((path) => relative(ROOT, path)).join(' → ')),
  );
}

test('no file of workflows/model/plan/ imports workflows/model/graph/, directly or through another module', () => {
  expect(crossings('plan', 'graph')).toEqual([]);
});

test('no file of workflows/model/graph/ imports workflows/model/plan/, directly or through another module', () => {
  expect(crossings('graph', 'plan')).toEqual([]);
});

test('the check sees imports: plan-as-graph.ts, beside both, reaches each folder', () => {
  const files = [...reached(join(WORKFLOWS, 'plan-as-graph.ts')).keys()].map((path) => relative(WORKFLOWS, path));
  expect(files.some((path) => path.startsWith('plan/'))).toBe(true);
  expect(files.some((path) => path.startsWith('graph/'))).toBe(true);
});
