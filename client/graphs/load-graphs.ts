/**
 * Loads the graph registry from the module named by `CAIRN_GRAPHS`: its default export is an
 * array of graphs made with `defineGraph` (docs/graphs.md#registering-graphs). Every graph is
 * checked again here (a module need not use defineGraph), so a broken one stops the process at
 * start with one error naming the module, the graph, each rule code and path. Loaded with
 * `import()`: TypeScript works under tsx (the CLI, `npm start`, `npm run web`) and jest; compiled
 * JavaScript anywhere.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Graph } from '../../workflows/graph/graph-schema';
import { checkGraph, graphLabel, issueText } from './check-graph';
import { createGraphRegistry, EMPTY_GRAPH_REGISTRY, type GraphRegistry } from './graph-registry';

/** A module or graph that cannot be registered; the message says which and why. */
export class GraphModuleError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GraphModuleError';
  }
}

/**
 * The registry of the module at `modulePath` (relative to `cwd`, or absolute); the empty registry
 * when no module is configured.
 * @throws GraphModuleError when the module is missing, fails to load, exports no graph array, holds
 *   a broken graph, or registers one name twice.
 */
export async function loadGraphRegistry(modulePath: string | undefined, cwd: string): Promise<GraphRegistry> {
  if (modulePath === undefined) return EMPTY_GRAPH_REGISTRY;
  const where = `graph module "${modulePath}" (CAIRN_GRAPHS)`;
  const file = resolve(cwd, modulePath);
  if (!existsSync(file)) throw new GraphModuleError(`${where} not found (looked at ${file})`);
  let namespace: unknown;
  try {
    namespace = await import(file);
  } catch (err) {
    throw new GraphModuleError(`${where} failed to load: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  const values = defaultArray(namespace);
  if (!values)
    throw new GraphModuleError(`${where} must export a default array of graphs: export default [defineGraph({ … })]`);
  const graphs = values.map((value, i): Graph => {
    const checked = checkGraph(value);
    if (checked.ok) return checked.graph;
    const lines = issueText(checked.issues).map((line) => `  ${line}`);
    throw new GraphModuleError(`${where}, graph ${graphLabel(value)} (default[${i}]) is invalid:\n${lines.join('\n')}`);
  });
  try {
    return createGraphRegistry(graphs);
  } catch (err) {
    throw new GraphModuleError(`${where}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/**
 * The module's default export when it is an array. A CommonJS build (or a loader's interop)
 * may wrap the namespace once more as `default.default`: looked through once.
 */
function defaultArray(namespace: unknown): unknown[] | undefined {
  const first = isRecord(namespace) ? namespace['default'] : undefined;
  if (Array.isArray(first)) return first as unknown[];
  const second = isRecord(first) ? first['default'] : undefined;
  return Array.isArray(second) ? (second as unknown[]) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
