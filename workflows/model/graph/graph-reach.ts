/**
 * Reachability over a graph's edges, conditions ignored (any edge may be taken): what the graph
 * rules reason with. Built on `reachableFrom` (reach.ts), as the plan's DAG rules are. Pure.
 */
import { reachableFrom, unique } from '../reach';
import type { Graph } from './graph-schema';

/** Known successors of each node, each once (conditions ignored: any edge may be taken). */
export function successors(graph: Graph): Map<string, string[]> {
  const ids = new Set(graph.nodes.map((node) => node.id));
  const next = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (!ids.has(edge.from) || !ids.has(edge.to)) continue;
    next.set(edge.from, unique([...(next.get(edge.from) ?? []), edge.to]));
  }
  return next;
}

/**
 * The known `starts` and every node reachable from them, never passing through `avoid` (the
 * nodes that can run before `avoid` first runs).
 */
export function reachableSet(graph: Graph, starts: string[], avoid?: string): Set<string> {
  const ids = new Set(graph.nodes.map((node) => node.id));
  const next = new Map<string, string[]>();
  for (const [from, to] of successors(graph)) {
    if (from !== avoid)
      next.set(
        from,
        to.filter((id) => id !== avoid),
      );
  }
  const reached = new Set(starts.filter((id) => ids.has(id) && id !== avoid));
  for (const start of [...reached]) reachableFrom(start, next).forEach((id) => reached.add(id));
  return reached;
}
