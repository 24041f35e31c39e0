/**
 * Text renderings of agent graphs for people: the graph a plan check shows (nodes with their
 * bounds, each edge with its condition) and the path a graph agent took. Pure functions; the
 * words are client/graphs/graph-display.ts's, which the web page shows too.
 */
import type { Graph, GraphEdge } from '../../../workflows/model/graph/graph-schema';
import type { AgentState } from '../../../workflows/model/agent/agent-state';
import { conditionText, droppedLine, graphBounds, nodeMarks, pathLine } from '../graph-display';

/** An edge's condition in words: `if "…"` (router), `if output.x = v`, or nothing for a plain edge. */
function condition(edge: GraphEdge): string {
  if (!edge.when) return '';
  return 'llm' in edge.when ? ` if "${conditionText(edge)}"` : ` if ${conditionText(edge)}`;
}

/** The graph as a list of nodes, each with its edges out: `review [end] → revise if output.approved = false`. */
export function formatGraph(graph: Graph): string {
  const head = `graph ${graph.name}: entry ${graph.entry.join(', ')} · end ${graph.end.join(', ')} · ${graphBounds(graph)}`;
  const nodes = graph.nodes.map((node) => {
    const marks = nodeMarks(graph, node);
    const out = graph.edges.filter((edge) => edge.from === node.id);
    const edges = out.map((edge) => `\n     → ${edge.to}${condition(edge)}`).join('');
    const title = node.title ? ` ${node.title}` : '';
    return `  [${node.id}]${title}${marks.length ? ` (${marks.join(', ')})` : ''}${edges}`;
  });
  return [head, ...nodes].join('\n');
}

/**
 * The path a graph agent took, one visit a line with its step id:
 * `[review-2] review · visit 2 → revise (output.approved equals false)`.
 */
export function formatPath(state: Pick<AgentState, 'path' | 'pathDropped'>): string {
  const dropped = state.pathDropped ? [`  ${droppedLine(state.pathDropped)}`] : [];
  const visits = (state.path ?? []).map((entry) => `  [${entry.stepId}] ${pathLine(entry)}`);
  return [...dropped, ...visits].join('\n');
}

/** A graph agent's path under a heading (`path (graph review-loop):`); undefined for a planned agent. */
export function formatGraphPath(state: Pick<AgentState, 'graph' | 'path' | 'pathDropped'>): string | undefined {
  if (!state.graph) return undefined;
  const path = formatPath(state);
  return `path (graph ${state.graph.name}):${path ? `\n${path}` : ' no visit yet'}`;
}
