/**
 * How a node's visit is left (agent graphs): its edges with `when` in order, the first that holds
 * taken, else its one plain edge (none: the branch ends); a node with plain edges only fans out to
 * all of them. `llm` conditions are decided by one `route` model call per exit, among the `llm`
 * edges before the first `equals` edge that holds; `equals` conditions read the visit's structured
 * output. Pure, so the walk and the later router activity agree on which edges were candidates.
 */
import type { Graph, GraphEdge } from './graph-schema';

/** An edge and its index in `graph.edges`, which the walk records as fired. */
export type IndexedEdge = GraphEdge & { index: number };

/** How a node is left. */
export type Exits =
  | { kind: 'fan-out'; edges: IndexedEdge[] }
  | { kind: 'conditional'; edges: IndexedEdge[]; fallback?: IndexedEdge }
  | { kind: 'end-of-branch' };

/** What a visit ended with: its structured output, and the router's reply when one was asked. */
export interface VisitDecision {
  output?: unknown;
  routed?: { to: string | null; reason: string };
}

/** The edges a visit takes, and why (for `state.path`). */
export interface ChosenExit {
  edges: IndexedEdge[];
  reason?: string;
}

/** The exits of `node`, edges in graph order. */
export function exitsOf(graph: Graph, node: string): Exits {
  const out = graph.edges.map((edge, index) => ({ ...edge, index })).filter((edge) => edge.from === node);
  if (out.length === 0) return { kind: 'end-of-branch' };
  const conditional = out.filter((edge) => edge.when);
  const fallback = out.find((edge) => !edge.when);
  if (conditional.length === 0) return { kind: 'fan-out', edges: out };
  return fallback ? { kind: 'conditional', edges: conditional, fallback } : { kind: 'conditional', edges: conditional };
}

/**
 * The `llm` edges a `route` call must choose among when leaving `node` with `output`: those
 * evaluated before the first `equals` edge that holds. Empty: no router call is needed.
 */
export function routeChoices(graph: Graph, node: string, output?: unknown): IndexedEdge[] {
  const exits = exitsOf(graph, node);
  if (exits.kind !== 'conditional') return [];
  const choices: IndexedEdge[] = [];
  for (const edge of exits.edges) {
    if (edge.when && 'llm' in edge.when) choices.push(edge);
    else if (equalsHolds(edge, output)) break;
  }
  return choices;
}

/**
 * The edges a visit of `node` takes. An `llm` edge holds when it is a candidate of
 * {@link routeChoices} and the router chose its target (the first such edge); without a reply,
 * or with a target no candidate has, no `llm` edge holds.
 */
export function chooseExit(graph: Graph, node: string, decision: VisitDecision): ChosenExit {
  const exits = exitsOf(graph, node);
  if (exits.kind === 'end-of-branch') return { edges: [] };
  if (exits.kind === 'fan-out')
    return exits.edges.length === 1 ? { edges: exits.edges, reason: 'plain edge' } : { edges: exits.edges };
  const candidates = new Set(routeChoices(graph, node, decision.output).map((edge) => edge.index));
  const routed = decision.routed;
  for (const edge of exits.edges) {
    if (edge.when && 'llm' in edge.when) {
      if (candidates.has(edge.index) && routed?.to === edge.to) return { edges: [edge], reason: routed.reason };
    } else if (edge.when && equalsHolds(edge, decision.output)) {
      const { path, value } = edge.when.equals;
      return { edges: [edge], reason: `output.${path} equals ${JSON.stringify(value)}` };
    }
  }
  const reason = routed?.reason ?? 'no condition held';
  return exits.fallback ? { edges: [exits.fallback], reason } : { edges: [], reason };
}

/** True when `edge` is an `equals` edge whose path in `output` holds its value. */
function equalsHolds(edge: GraphEdge, output: unknown): boolean {
  if (!edge.when || !('equals' in edge.when)) return false;
  const found = valueAt(output, edge.when.equals.path);
  return found.found && jsonEquals(found.value, edge.when.equals.value);
}

/** The value at a dot path (array items by index); own properties only, so `constructor` is never found. */
export function valueAt(value: unknown, path: string): { found: boolean; value?: unknown } {
  let at = value;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return { found: false };
    at = (at as Record<string, unknown>)[key];
  }
  return { found: true, value: at };
}

/** Deep equality of JSON values; object key order does not matter. */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  const aRecord = a as Record<string, unknown>;
  const bRecord = b as Record<string, unknown>;
  return aKeys.every((key) => Object.hasOwn(bRecord, key) && jsonEquals(aRecord[key], bRecord[key]));
}
