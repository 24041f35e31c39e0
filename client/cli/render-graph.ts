/**
 * Text renderings of agent graphs for people: the graph a plan check shows (nodes with their
 * bounds, each edge with its condition) and the path a graph agent took. Pure functions.
 */
import type { Graph, GraphEdge } from '../../workflows/graph/graph-schema';
import type { AgentState } from '../../workflows/agent/agent-state';

/** An edge's condition in words: `if "…"` (router), `if output.x = v`, or nothing for a plain edge. */
function condition(edge: GraphEdge): string {
  if (!edge.when) return '';
  if ('llm' in edge.when) return ` if "${edge.when.llm}"`;
  return ` if output.${edge.when.equals.path} = ${JSON.stringify(edge.when.equals.value)}`;
}

/** The graph as a list of nodes, each with its edges out: `review [end] → revise if output.approved = false`. */
export function formatGraph(graph: Graph): string {
  const head = `graph ${graph.name}: entry ${graph.entry.join(', ')} · end ${graph.end.join(', ')} · at most ${graph.maxIterations} visits per node${graph.timeoutMs ? ` · timeout ${graph.timeoutMs} ms` : ''}`;
  const nodes = graph.nodes.map((node) => {
    const marks = [
      ...(graph.entry.includes(node.id) ? ['entry'] : []),
      ...(graph.end.includes(node.id) ? ['end'] : []),
      ...(node.join === 'all' ? ['join all'] : []),
      ...(node.output ? ['structured output'] : []),
    ];
    const out = graph.edges.filter((edge) => edge.from === node.id);
    const edges = out.map((edge) => `\n     → ${edge.to}${condition(edge)}`).join('');
    const title = node.title ? ` ${node.title}` : '';
    return `  [${node.id}]${title}${marks.length ? ` (${marks.join(', ')})` : ''}${edges}`;
  });
  return [head, ...nodes].join('\n');
}

/** The path a graph agent took: `review · visit 2 → revise (output.approved equals false)`, one visit a line. */
export function formatPath(state: Pick<AgentState, 'path' | 'pathDropped'>): string {
  const dropped = state.pathDropped ? [`  … ${state.pathDropped} earlier visits`] : [];
  const visits = (state.path ?? []).map((entry) => {
    const edge = entry.edge ? ` → ${entry.edge.to}${entry.edge.reason ? ` (${entry.edge.reason})` : ''}` : '';
    return `  ${entry.node} · visit ${entry.visit}${edge}`;
  });
  return [...dropped, ...visits].join('\n');
}
