/**
 * The walk of an agent graph as pure state transitions: which nodes are ready, starting their
 * visits, leaving a visit by the edges it takes, and when the walk ends. The state is plain JSON
 * (records and arrays, no Map or Set) because it is carried across continue-as-new and read by
 * queries. Semantics (where the design leaves room, decided here):
 * - `join` defaults to `any`: a loop target (`revise → review`) is entered by one edge at a time.
 *   `all` waits for every incoming edge fired since the node's last visit; an entry's first visit
 *   needs none. A visit consumes the edges fired before it starts; edges fired while it runs count
 *   for the next one. A node never runs two visits at once. So `any` behind a fan-out runs again
 *   for an edge that fires after its visit started (use `all` to meet parallel branches once).
 * - A visit that would exceed `maxIterations` ends the walk `stopped` with `max_iterations` at once
 *   (visits still running are the caller's to cancel).
 * - An end node's visit that takes no edge reaches the end; ready visits still start, and the walk
 *   completes with the first end reached once nothing runs or is ready. Nothing running, nothing
 *   ready and no end reached: the walk fails with `no_end_reached`.
 */
import type { ChosenExit, IndexedEdge, VisitDecision } from './graph-exits';
import { chooseExit } from './graph-exits';
import type { Graph } from './graph-schema';

/** The pseudo edge index an entry's first visit is ready by. */
export const ENTRY_EDGE = -1;

/** One visit of a node: its number (1 for the first) and step id. */
export interface WalkVisit {
  node: string;
  visit: number;
  stepId: string;
}

/** A visit in `state.path`, with the edge it left by when it took exactly one. */
export interface PathEntry extends WalkVisit {
  edge?: { to: string; reason: string };
}

/** How a walk ended. */
export type WalkEnd =
  | { status: 'completed'; node: string; stepId: string }
  | { status: 'stopped'; stopReason: 'max_iterations'; node: string }
  | { status: 'failed'; reason: 'no_end_reached' };

/** The walk's state: plain JSON. */
export interface Walk {
  /** Visits started per node. */
  visits: Record<string, number>;
  /** Per node, the indexes of its incoming edges fired since its last visit started ({@link ENTRY_EDGE} for an entry). */
  fired: Record<string, number[]>;
  running: WalkVisit[];
  path: PathEntry[];
  /** The first end node's visit that took no edge. */
  endReached?: { node: string; stepId: string };
  ended?: WalkEnd;
}

/** The step id of a node's visit: the node id for the first, `<node>-<visit>` after (`X-Cairn-Step`). */
export function stepIdOf(node: string, visit: number): string {
  return visit <= 1 ? node : `${node}-${visit}`;
}

/** The walk before any visit: every entry node ready. */
export function startWalk(graph: Graph): Walk {
  const fired = Object.fromEntries(graph.entry.map((id) => [id, [ENTRY_EDGE]]));
  return { visits: {}, fired, running: [], path: [] };
}

/** Nodes whose next visit may start now, in graph order; none once the walk ended. */
export function readyNodes(walk: Walk, graph: Graph): string[] {
  if (walk.ended) return [];
  return graph.nodes
    .filter((node) => !walk.running.some((visit) => visit.node === node.id))
    .filter((node) => joinHolds(graph, node.id, node.join ?? 'any', own(walk.fired, node.id) ?? []))
    .map((node) => node.id);
}

/**
 * Starts the next visit of each of `nodes` that is ready (the caller picks them, e.g. under
 * `maxParallelSteps`). If one would exceed `maxIterations`, none starts and the walk is stopped.
 */
export function startVisits(walk: Walk, graph: Graph, nodes: string[]): { walk: Walk; started: WalkVisit[] } {
  const ready = new Set(readyNodes(walk, graph));
  const chosen = [...new Set(nodes)].filter((node) => ready.has(node));
  const over = chosen.find((node) => (own(walk.visits, node) ?? 0) + 1 > graph.maxIterations);
  if (over !== undefined) {
    return { walk: { ...walk, ended: { status: 'stopped', stopReason: 'max_iterations', node: over } }, started: [] };
  }
  const started = chosen.map((node) => {
    const visit = (own(walk.visits, node) ?? 0) + 1;
    return { node, visit, stepId: stepIdOf(node, visit) };
  });
  const visits = { ...walk.visits };
  const fired = { ...walk.fired };
  for (const { node, visit } of started) {
    visits[node] = visit;
    fired[node] = [];
  }
  const path = [...walk.path, ...started.map((visit) => ({ ...visit }))];
  return { walk: { ...walk, visits, fired, running: [...walk.running, ...started], path }, started };
}

/**
 * Ends the running visit `stepId`: takes its exit (graph-exits.ts chooseExit), marks the edges
 * fired, records the edge in the path, and ends the walk when nothing runs or is ready. An
 * unknown step id or an ended walk leaves the walk as it is.
 */
export function leaveVisit(
  walk: Walk,
  graph: Graph,
  stepId: string,
  decision: VisitDecision = {},
): { walk: Walk; taken: IndexedEdge[] } {
  const visit = walk.running.find((running) => running.stepId === stepId);
  if (walk.ended || !visit) return { walk, taken: [] };
  const exit = chooseExit(graph, visit.node, decision);
  const fired = { ...walk.fired };
  for (const edge of exit.edges) fired[edge.to] = [...new Set([...(own(fired, edge.to) ?? []), edge.index])];
  const endHere = exit.edges.length === 0 && graph.end.includes(visit.node) && !walk.endReached;
  const left: Walk = {
    ...walk,
    fired,
    running: walk.running.filter((running) => running.stepId !== stepId),
    path: walk.path.map((entry) => (entry.stepId === stepId ? withEdge(entry, exit) : entry)),
    ...(endHere ? { endReached: { node: visit.node, stepId } } : {}),
  };
  return { walk: settle(left, graph), taken: exit.edges };
}

/**
 * Ends the running visit `stepId` without an exit: it failed and was skipped, or was cancelled.
 * Its branch ends there; the walk ends when nothing runs or is ready.
 */
export function abandonVisit(walk: Walk, graph: Graph, stepId: string): Walk {
  if (walk.ended || !walk.running.some((running) => running.stepId === stepId)) return walk;
  return settle({ ...walk, running: walk.running.filter((running) => running.stepId !== stepId) }, graph);
}

/** Ends the walk when nothing runs and nothing is ready: completed at the end reached, else failed. */
export function settle(walk: Walk, graph: Graph): Walk {
  if (walk.running.length > 0 || readyNodes(walk, graph).length > 0) return walk;
  const ended: WalkEnd = walk.endReached
    ? { status: 'completed', ...walk.endReached }
    : { status: 'failed', reason: 'no_end_reached' };
  return { ...walk, ended };
}

function withEdge(entry: PathEntry, exit: ChosenExit): PathEntry {
  const [edge] = exit.edges;
  if (exit.edges.length !== 1 || !edge) return entry;
  return { ...entry, edge: { to: edge.to, reason: exit.reason ?? '' } };
}

/** `any`: some edge fired; `all`: the entry's first visit, or every known incoming edge fired. */
function joinHolds(graph: Graph, node: string, join: 'all' | 'any', fired: number[]): boolean {
  if (fired.length === 0) return false;
  if (join === 'any' || fired.includes(ENTRY_EDGE)) return true;
  const incoming = graph.edges.flatMap((edge, index) => (edge.to === node ? [index] : []));
  return incoming.every((index) => fired.includes(index));
}

/** A record's own value (ids like `constructor` never read the prototype). */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
