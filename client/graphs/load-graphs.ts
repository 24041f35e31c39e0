/**
 * Loads the graph registry from the module named by `CAIRN_GRAPHS`: its default export is an
 * array of graphs made with `defineGraph` (docs/graphs.md#registering-graphs). Every graph is
 * checked again here (a module need not use defineGraph), so a broken one stops the process at
 * start with one error naming the module, the graph, each rule code and path (the module is
 * imported as client/user-modules/load-default-array.ts says).
 */
import type { Graph } from '../../workflows/model/graph/graph-schema';
import { checkGraph, graphLabel, issueText } from './check-graph';
import { loadDefaultArray } from '../user-modules/load-default-array';
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
  const values = await loadDefaultArray(
    modulePath,
    cwd,
    where,
    'of graphs: export default [defineGraph({ … })]',
    (message, cause) => new GraphModuleError(message, cause === undefined ? undefined : { cause }),
  );
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
