/**
 * The DAG rules of a plan, each error naming the step: `step "s2": duplicate id`, `step "s3":
 * depends on unknown step "x"`, `step "s1": depends on itself`, `cycle: s1 → s2 → s1` (each
 * arrow reads "depends on"; one cycle per group of steps that depend on each other), and
 * `replan: unknown step "x"`. Pure.
 */
import { reachableFrom, unique } from '../reach';

/** The parts of a plan the DAG rules look at. */
export interface PlanGraph {
  steps: { id: string; depends_on: string[] }[];
  replan: string[];
}

/** Every DAG rule, in a stable order: duplicates, dependencies, cycles, replan. */
export function checkGraph(graph: PlanGraph): string[] {
  return [...duplicateIdErrors(graph), ...dependencyErrors(graph), ...cycleErrors(graph), ...replanErrors(graph)];
}

function duplicateIdErrors(graph: PlanGraph): string[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const { id } of graph.steps) {
    if (seen.has(id)) duplicates.push(id);
    seen.add(id);
  }
  return unique(duplicates).map((id) => `step "${id}": duplicate id`);
}

function dependencyErrors(graph: PlanGraph): string[] {
  const ids = new Set(graph.steps.map((step) => step.id));
  return graph.steps.flatMap((step) =>
    unique(step.depends_on).flatMap((dep) => {
      if (dep === step.id) return [`step "${step.id}": depends on itself`];
      return ids.has(dep) ? [] : [`step "${step.id}": depends on unknown step "${dep}"`];
    }),
  );
}

function replanErrors(graph: PlanGraph): string[] {
  const ids = new Set(graph.steps.map((step) => step.id));
  return unique(graph.replan.filter((id) => !ids.has(id))).map((id) => `replan: unknown step "${id}"`);
}

/**
 * One error per strongly connected group of steps: the shortest cycle through the group's first
 * step in plan order. Self-dependencies are left to {@link dependencyErrors}.
 */
function cycleErrors(graph: PlanGraph): string[] {
  const deps = dependencyMap(graph);
  const reach = new Map([...deps.keys()].map((id) => [id, reachableFrom(id, deps)]));
  const reported = new Set<string>();
  const errors: string[] = [];
  for (const id of deps.keys()) {
    if (reported.has(id) || !reach.get(id)?.has(id)) continue;
    const group = new Set([...deps.keys()].filter((other) => reach.get(id)?.has(other) && reach.get(other)?.has(id)));
    group.forEach((member) => reported.add(member));
    errors.push(`cycle: ${shortestCycle(id, deps, group).join(' → ')}`);
  }
  return errors;
}

/** Known, non-self dependencies per id, ids in plan order; duplicate ids merge their deps. */
function dependencyMap(graph: PlanGraph): Map<string, string[]> {
  const ids = new Set(graph.steps.map((step) => step.id));
  const deps = new Map<string, string[]>();
  for (const step of graph.steps) {
    const known = step.depends_on.filter((dep) => dep !== step.id && ids.has(dep));
    deps.set(step.id, unique([...(deps.get(step.id) ?? []), ...known]));
  }
  return deps;
}

/** Breadth-first search inside `group` for the shortest path from `start` back to itself. */
function shortestCycle(start: string, deps: Map<string, string[]>, group: Set<string>): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const dep of deps.get(node) ?? []) {
      if (dep === start) return [...pathTo(node, start, parent), start];
      if (!group.has(dep) || parent.has(dep)) continue;
      parent.set(dep, node);
      queue.push(dep);
    }
  }
  return [start, start]; // unreachable: `start` is on a cycle inside `group`
}

/** The path `start → … → node` recorded in `parent` by {@link shortestCycle}. */
function pathTo(node: string, start: string, parent: Map<string, string>): string[] {
  const path = [node];
  for (let at = node; at !== start;) {
    const previous = parent.get(at);
    if (previous === undefined) break;
    path.unshift(previous);
    at = previous;
  }
  return path;
}
