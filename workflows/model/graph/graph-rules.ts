/**
 * The rules between a graph's parts, each broken one a coded problem naming the node or edge
 * (`node "review": …`) and its place in the input (`graph.edges[2].to`), all of them at once so an
 * author fixes a graph in one go. Only what provably goes wrong is refused: a join or branch that
 * may still work at run time is left to the walk. Pure.
 */
import { stepIdSchema } from '../step-id';
import type { Graph } from './graph-schema';
import { nodeIdSchema } from './graph-schema';
import { exitsOf } from './graph-exits';
import { reachableSet } from './graph-reach';
import { outputProblems } from './graph-output-rules';

/** Every rule a graph can break (the codes callers and tests match). */
export const GRAPH_RULES = [
  'duplicate_node',
  'bad_node_id',
  'unknown_node',
  'duplicate_edge',
  'ambiguous_plain_exit',
  'equals_without_output',
  'unreachable_node',
  'no_end_reachable',
  'end_always_leaves',
  'join_never_fires',
  'bad_output_schema',
  'output_schema_regex',
] as const;
/** One of {@link GRAPH_RULES}. */
export type GraphRule = (typeof GRAPH_RULES)[number];

/** One broken rule: its code, where in the input, and a sentence naming the node or edge. */
export interface GraphProblem {
  rule: GraphRule;
  path: string;
  message: string;
}

/**
 * Which id rules nodes follow: `node` (a developer's graph, whose nodes may be visited many times)
 * or `step` (a plan turned into a graph by planToGraph, whose nodes run once each, so the plan's
 * own step ids — `step-1` included — stay the step ids its history already has).
 */
export interface GraphCheckOptions {
  ids?: 'node' | 'step';
}

/** Every problem of `graph`, in a stable order (ids, references, exits, reachability, joins). */
export function checkGraphRules(graph: Graph, options: GraphCheckOptions = {}): GraphProblem[] {
  return [
    ...idProblems(graph, options.ids ?? 'node'),
    ...referenceProblems(graph),
    ...exitProblems(graph),
    ...reachProblems(graph),
    ...joinProblems(graph),
    ...outputProblems(graph),
  ];
}

function idProblems(graph: Graph, ids: 'node' | 'step'): GraphProblem[] {
  const schema = ids === 'node' ? nodeIdSchema : stepIdSchema;
  const seen = new Set<string>();
  return graph.nodes.flatMap((node, i): GraphProblem[] => {
    const path = `graph.nodes[${i}].id`;
    const parsed = schema.safeParse(node.id);
    const bad: GraphProblem[] = parsed.success
      ? []
      : [
          {
            rule: 'bad_node_id',
            path,
            message: `node "${node.id}": id ${parsed.error.issues[0]?.message ?? 'is invalid'}`,
          },
        ];
    if (seen.has(node.id)) bad.push({ rule: 'duplicate_node', path, message: `node "${node.id}": duplicate id` });
    seen.add(node.id);
    return bad;
  });
}

function referenceProblems(graph: Graph): GraphProblem[] {
  const ids = new Set(graph.nodes.map((node) => node.id));
  const unknown = (id: string, path: string, what: string): GraphProblem[] =>
    ids.has(id) ? [] : [{ rule: 'unknown_node', path, message: `${what} names unknown node "${id}"` }];
  return [
    ...graph.edges.flatMap((edge, i) => [
      ...unknown(edge.from, `graph.edges[${i}].from`, `edge ${i} (${edge.from} → ${edge.to})`),
      ...unknown(edge.to, `graph.edges[${i}].to`, `edge ${i} (${edge.from} → ${edge.to})`),
    ]),
    ...graph.entry.flatMap((id, i) => unknown(id, `graph.entry[${i}]`, 'entry')),
    ...graph.end.flatMap((id, i) => unknown(id, `graph.end[${i}]`, 'end')),
  ];
}

/** Plain-edge copies, a conditional node's second plain edge, `equals` on no output, end nodes that always leave. */
function exitProblems(graph: Graph): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const plainSeen = new Set<string>();
  const plainCount = new Map<string, number>();
  const hasWhen = new Set(graph.edges.filter((edge) => edge.when).map((edge) => edge.from));
  graph.edges.forEach((edge, i) => {
    const node = graph.nodes.find((n) => n.id === edge.from);
    if (edge.when && 'equals' in edge.when && node && !node.output) {
      const message = `node "${edge.from}": edge to "${edge.to}" tests its output, but the node declares no "output"`;
      problems.push({ rule: 'equals_without_output', path: `graph.edges[${i}].when`, message });
    }
    if (edge.when) return;
    const key = JSON.stringify([edge.from, edge.to]);
    if (plainSeen.has(key)) {
      const message = `node "${edge.from}": a second plain edge to "${edge.to}"`;
      problems.push({ rule: 'duplicate_edge', path: `graph.edges[${i}]`, message });
    }
    plainSeen.add(key);
    const count = (plainCount.get(edge.from) ?? 0) + 1;
    plainCount.set(edge.from, count);
    if (count > 1 && hasWhen.has(edge.from)) {
      const message = `node "${edge.from}": has conditional edges, so it may have one plain edge (the fallback), not a second one to "${edge.to}"`;
      problems.push({ rule: 'ambiguous_plain_exit', path: `graph.edges[${i}]`, message });
    }
  });
  graph.end.forEach((id, i) => {
    const exits = exitsOf(graph, id);
    if (exits.kind === 'end-of-branch' || (exits.kind === 'conditional' && !exits.fallback)) return;
    const message = `node "${id}": an end node, but every visit leaves it by an edge, so it never ends the agent`;
    problems.push({ rule: 'end_always_leaves', path: `graph.end[${i}]`, message });
  });
  return problems;
}

/**
 * Unreachable nodes, and `no_end_reachable`: when no end can be reached from any entry (path
 * `graph.end`); and, when the graph runs one branch at a time (one entry, no node fans out to two
 * or more edges), for each reachable node from which no end can be reached — reaching it means the
 * agent can never complete. With parallel branches a branch may end anywhere (another one ends
 * the agent), so only the first check applies.
 */
function reachProblems(graph: Graph): GraphProblem[] {
  const reached = reachableSet(graph, graph.entry);
  const ends = new Set(graph.end);
  const problems: GraphProblem[] = [];
  graph.nodes.forEach((node, i) => {
    if (reached.has(node.id)) return;
    const message = `node "${node.id}": not reachable from any entry`;
    problems.push({ rule: 'unreachable_node', path: `graph.nodes[${i}]`, message });
  });
  if (![...reached].some((id) => ends.has(id))) {
    const message = 'no end node can be reached from any entry';
    return [...problems, { rule: 'no_end_reachable', path: 'graph.end', message }];
  }
  const oneBranch =
    graph.entry.length === 1 &&
    graph.nodes.every((n) => exitsOf(graph, n.id).kind !== 'fan-out' || fanOutWidth(graph, n.id) < 2);
  if (!oneBranch) return problems;
  graph.nodes.forEach((node, i) => {
    if (!reached.has(node.id) || [...reachableSet(graph, [node.id])].some((id) => ends.has(id))) return;
    const message = `node "${node.id}": no end node can be reached from it`;
    problems.push({ rule: 'no_end_reachable', path: `graph.nodes[${i}]`, message });
  });
  return problems;
}

/**
 * `join_never_fires`: a reachable node with `join: "all"`, not an entry, with an incoming edge
 * from a node that cannot run before its first visit (no path from an entry reaches that node
 * without passing through it — it runs only after it, is the node itself, or never runs): its
 * first visit waits for that edge forever. Sound, not complete:
 * a join over branches that exclude each other at run time is not detected.
 */
function joinProblems(graph: Graph): GraphProblem[] {
  const reached = reachableSet(graph, graph.entry);
  const ids = new Set(graph.nodes.map((node) => node.id));
  return graph.nodes.flatMap((node) => {
    if (node.join !== 'all' || graph.entry.includes(node.id) || !reached.has(node.id)) return [];
    const before = reachableSet(graph, graph.entry, node.id);
    return graph.edges.flatMap((edge, i): GraphProblem[] => {
      if (edge.to !== node.id || before.has(edge.from) || !ids.has(edge.from)) return [];
      const why = reached.has(edge.from) ? `can only run after "${node.id}" itself` : 'never runs';
      const message = `node "${node.id}": join "all" waits for the edge from "${edge.from}", which ${why}`;
      return [{ rule: 'join_never_fires', path: `graph.edges[${i}]`, message }];
    });
  });
}

function fanOutWidth(graph: Graph, id: string): number {
  return graph.edges.filter((edge) => edge.from === id).length;
}
