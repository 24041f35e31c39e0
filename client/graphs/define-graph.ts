/**
 * `defineGraph`: how a developer registers an agent graph in the module named by `CAIRN_GRAPHS`
 * (docs/graphs.md). It types the graph as it is written and checks it at once, so a broken graph
 * fails where it is defined (in the editor's type check, then at import) rather than when an
 * agent starts.
 */
import type { GraphInput } from '../../workflows/model/graph/graph-schema';
import { checkGraph, graphLabel, issueText, type GraphIssue } from './check-graph';

/** A graph that breaks its shape or a rule: every problem, each with its code and path. */
export class GraphDefinitionError extends Error {
  constructor(
    /** The graph's name as given, quoted (`"review-loop"`), or `(unnamed)`. */
    readonly graph: string,
    readonly issues: readonly GraphIssue[],
  ) {
    super(
      `graph ${graph} is invalid:\n${issueText(issues)
        .map((line) => `  ${line}`)
        .join('\n')}`,
    );
    this.name = 'GraphDefinitionError';
  }
}

/**
 * Defines an agent graph: returns `graph` itself, typed, after checking it.
 * @throws GraphDefinitionError listing every broken shape rule or graph rule with its code.
 * @example
 * export default [defineGraph({ name: 'one-step', nodes: [{ id: 'answer', systemPrompt: '…' }], entry: ['answer'], end: ['answer'] })];
 */
export function defineGraph(graph: GraphInput): GraphInput {
  const checked = checkGraph(graph);
  if (!checked.ok) throw new GraphDefinitionError(graphLabel(graph), checked.issues);
  return graph;
}
