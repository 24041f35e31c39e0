/**
 * Reachability over edges given as a map from each id to the ids it leads to: what the plan's
 * DAG rules (dependencies) and the graph rules (edges) both reason with, kept here so that
 * neither `plan/` nor `graph/` imports the other. Pure.
 */

/** Ids reachable from `start` through one or more edges of `next`. */
export function reachableFrom(start: string, next: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const queue = [...(next.get(start) ?? [])];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(next.get(id) ?? []));
  }
  return seen;
}

/** The items, each once, in first-seen order. */
export function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
