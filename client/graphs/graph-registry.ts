/**
 * The registered agent graphs (docs/graphs.md#registering-graphs): checked graphs by name, read
 * by the clients that start agents (a `graphName` resolves here) and listed by `GET /api/graphs`
 * and `cairn graphs`. Built once at start from the `CAIRN_GRAPHS` module (load-graphs.ts).
 */
import type { Graph } from '../../workflows/model/graph/graph-schema';

/** One registered graph: its checked form, with defaults filled in, as agents capture it. */
export interface RegisteredGraph {
  name: string;
  description?: string;
  graph: Graph;
}

/** The graphs a process knows, by name. */
export interface GraphRegistry {
  /** Every graph, in the order the module lists them. */
  list(): RegisteredGraph[];
  /** The graph registered as `name`, if any. */
  get(name: string): RegisteredGraph | undefined;
}

/**
 * A registry of already checked graphs.
 * @throws Error when two graphs share a name.
 */
export function createGraphRegistry(graphs: readonly Graph[]): GraphRegistry {
  const byName = new Map<string, RegisteredGraph>();
  for (const graph of graphs) {
    if (byName.has(graph.name)) throw new Error(`graph name "${graph.name}" is registered twice`);
    byName.set(graph.name, {
      name: graph.name,
      ...(graph.description !== undefined ? { description: graph.description } : {}),
      graph,
    });
  }
  const entries = [...byName.values()];
  return { list: () => [...entries], get: (name) => byName.get(name) };
}

/** No graphs: `CAIRN_GRAPHS` unset. */
export const EMPTY_GRAPH_REGISTRY: GraphRegistry = createGraphRegistry([]);
