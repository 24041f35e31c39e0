/**
 * How an agent graph reads to people, the same on the web page and in the CLI: an edge's
 * condition as a label, a node's marks, the graph's bounds, which edges close a loop (drawn
 * apart, so a loop shows), which node and visit a step is, each node's visits so far and the
 * status of its latest, which edges the path took, and one visit of the path in words. Pure: the web page loads it through client/web/rules.ts, the CLI's
 * client/graphs/cli/render-graph.ts builds its text from it.
 */
import type { Graph, GraphNode } from '../../workflows/model/graph/graph-schema';
import { stepDisplayStatus } from '../status-display';

/** The parts of a step this module reads. */
interface StepLike {
  id: string;
  status: string;
}

/** One visit of `state.path`, as this module reads it. */
export interface PathEntryLike {
  node: string;
  visit: number;
  stepId: string;
  edge?: { to: string; reason: string } | undefined;
}

/** A node's visits as far as the state shows them: how many, and the step of the latest. */
export interface NodeVisits {
  visits: number;
  latest?: StepLike;
}

/** An edge's condition as a label: the router's text, `output.<path> = <value as JSON>`, or '' for a plain edge. */
export function conditionText(edge: { when?: { llm: string } | { equals: { path: string; value: unknown } } }): string {
  if (!edge.when) return '';
  if ('llm' in edge.when) return edge.when.llm;
  return `output.${edge.when.equals.path} = ${JSON.stringify(edge.when.equals.value)}`;
}

/** A node's marks, in this order: `entry`, `end`, `join all`, `structured output`. */
export function nodeMarks(graph: Pick<Graph, 'entry' | 'end'>, node: Pick<GraphNode, 'id' | 'join' | 'output'>) {
  return [
    ...(graph.entry.includes(node.id) ? ['entry'] : []),
    ...(graph.end.includes(node.id) ? ['end'] : []),
    ...(node.join === 'all' ? ['join all'] : []),
    ...(node.output ? ['structured output'] : []),
  ];
}

/** The graph's bounds in words: `at most 3 visits per node`, then ` · timeout 60000 ms` when it has one. */
export function graphBounds(graph: Pick<Graph, 'maxIterations' | 'timeoutMs'>): string {
  const timeout = graph.timeoutMs ? ` · timeout ${graph.timeoutMs} ms` : '';
  return `at most ${graph.maxIterations} visits per node${timeout}`;
}

/**
 * The indexes (into `graph.edges`) of the edges that close a loop: a depth-first walk from the
 * entry nodes (then from any node not reached), following each node's edges in their order, and
 * an edge back to a node still on the walk's path — a node's edge to itself too. Without these
 * edges the graph has no cycle, so a left-to-right layout of the rest puts every node after the
 * nodes before it, and the loops can be drawn apart from it.
 */
export function loopEdges(graph: Pick<Graph, 'nodes' | 'edges' | 'entry'>): Set<number> {
  const ids = new Set(graph.nodes.map((node) => node.id));
  const out = new Map<string, number[]>();
  graph.edges.forEach((edge, index) => {
    if (ids.has(edge.from) && ids.has(edge.to)) out.set(edge.from, [...(out.get(edge.from) ?? []), index]);
  });
  const loops = new Set<number>();
  const onPath = new Set<string>();
  const done = new Set<string>();
  const walk = (start: string) => {
    if (done.has(start) || onPath.has(start)) return;
    // An explicit stack (node, next edge to follow): a long chain must not overflow the call stack.
    const stack: { node: string; next: number }[] = [{ node: start, next: 0 }];
    onPath.add(start);
    for (let top = stack[0]; top !== undefined; top = stack[stack.length - 1]) {
      const index = out.get(top.node)?.[top.next];
      if (index === undefined) {
        stack.pop();
        onPath.delete(top.node);
        done.add(top.node);
        continue;
      }
      top.next += 1;
      const to = graph.edges[index]?.to ?? '';
      if (onPath.has(to)) loops.add(index);
      else if (!done.has(to)) {
        onPath.add(to);
        stack.push({ node: to, next: 0 });
      }
    }
  };
  for (const id of [...graph.entry, ...graph.nodes.map((node) => node.id)]) if (ids.has(id)) walk(id);
  return loops;
}

/**
 * The node and visit a step id names: `<node>` is its first visit, `<node>-<n>` its nth. A node
 * id never ends in `-<digits>`, so no step id can name two nodes; undefined for any other id.
 */
export function visitOfStep(stepId: string, nodeIds: ReadonlySet<string>): { node: string; visit: number } | undefined {
  if (nodeIds.has(stepId)) return { node: stepId, visit: 1 };
  const match = /^(.+)-(\d+)$/.exec(stepId);
  if (!match?.[1] || !match[2] || !nodeIds.has(match[1])) return undefined;
  return { node: match[1], visit: Number(match[2]) };
}

/**
 * Each node's visits: the highest visit number its steps or the path show (the path keeps the
 * newest visits only, the steps every visit), and the step of its latest visit — whose status
 * says whether that visit runs now.
 */
export function nodeVisits(
  graph: Pick<Graph, 'nodes'>,
  steps: readonly StepLike[],
  path: readonly PathEntryLike[] = [],
): Map<string, NodeVisits> {
  const ids = new Set(graph.nodes.map((node) => node.id));
  const visits = new Map<string, NodeVisits>(graph.nodes.map((node) => [node.id, { visits: 0 }]));
  const latestVisit = new Map<string, number>();
  for (const step of steps) {
    const of = visitOfStep(step.id, ids);
    const seen = of && visits.get(of.node);
    if (!of || !seen) continue;
    seen.visits = Math.max(seen.visits, of.visit);
    if (of.visit >= (latestVisit.get(of.node) ?? 0)) {
      latestVisit.set(of.node, of.visit);
      seen.latest = step;
    }
  }
  for (const entry of path) {
    const seen = visits.get(entry.node);
    if (seen) seen.visits = Math.max(seen.visits, entry.visit);
  }
  return visits;
}

/** A node as a drawing of the running graph shows it. */
export interface NodeState {
  visits: number;
  /** Its latest visit's status as people read it (client/status-display.ts); `pending` (or `not run`) before any. */
  status: string;
  /** Whether its latest visit runs (or waits) now. */
  current: boolean;
}

/** Each node of a graph agent as its drawing shows it: visits, the latest visit's status, whether it runs now. */
export function nodeStates(
  state: {
    graph: Pick<Graph, 'nodes'>;
    steps: readonly StepLike[];
    path?: readonly PathEntryLike[] | undefined;
  } & Parameters<typeof stepDisplayStatus>[1],
): Map<string, NodeState> {
  const visits = nodeVisits(state.graph, state.steps, state.path ?? []);
  return new Map(
    [...visits].map(([id, seen]) => {
      const status = stepDisplayStatus(seen.latest ?? { status: 'pending' }, state);
      const current = seen.latest?.status === 'running' || seen.latest?.status === 'waiting';
      return [id, { visits: seen.visits, status, current }];
    }),
  );
}

/** How often the path took an edge, by `<from>→<to>`. */
export function takenEdges(path: readonly PathEntryLike[]): Map<string, number> {
  const taken = new Map<string, number>();
  for (const entry of path) {
    if (!entry.edge) continue;
    const key = `${entry.node}→${entry.edge.to}`;
    taken.set(key, (taken.get(key) ?? 0) + 1);
  }
  return taken;
}

/** One visit of the path in words: `review · visit 2 → revise (output.approved equals false)`. */
export function pathLine(entry: PathEntryLike): string {
  const edge = entry.edge ? ` → ${entry.edge.to}${entry.edge.reason ? ` (${entry.edge.reason})` : ''}` : '';
  return `${entry.node} · visit ${entry.visit}${edge}`;
}

/** What stands for the visits `state.path` no longer keeps: `… 4 earlier visits`. */
export function droppedLine(dropped: number): string {
  return `… ${dropped} earlier visit${dropped === 1 ? '' : 's'}`;
}
