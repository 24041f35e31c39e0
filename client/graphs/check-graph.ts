/**
 * One check of a developer's graph, as `defineGraph` and the registry loader run it: the shape
 * (graphSchema) and then the rules between its parts (checkGraphRules), every problem coded —
 * the rule's code, or `shape` for a broken shape — so an author fixes a graph in one go.
 */
import { issueLines } from '../../workflows/base/issue-lines';
import { checkGraphRules, type GraphRule } from '../../workflows/model/graph/graph-rules';
import { graphSchema, type Graph } from '../../workflows/model/graph/graph-schema';

/** What a problem is coded: a rule of graph-rules.ts, or `shape` when the value is not a graph at all. */
export type GraphProblemCode = GraphRule | 'shape';

/** One problem of a graph, as `<path>: <message> (<code>)`. */
export interface GraphIssue {
  code: GraphProblemCode;
  /** Where in the graph, spelled as in the agent input: `graph.edges[2].to`. */
  path: string;
  message: string;
}

const NODE_ID_PATH = /^graph\.nodes\[\d+\]\.id$/;

/** The checked graph (defaults filled in), or every problem found. */
export type GraphCheck = { ok: true; graph: Graph } | { ok: false; issues: GraphIssue[] };

/**
 * Checks `value` as a graph whose nodes follow node id rules (visited many times, so no id may end
 * in `-<digits>`). Rules are checked only on a well-shaped graph: they read its parts.
 */
export function checkGraph(value: unknown): GraphCheck {
  const parsed = graphSchema.safeParse(value);
  if (!parsed.success) {
    const lines = issueLines(parsed.error, 'graph', 'graph', 'brackets');
    const issues = parsed.error.issues.map(({ message }, i): GraphIssue => {
      // Each line is `<path>: <message>`: the path is what precedes the issue's own message.
      const line = lines[i] ?? '';
      const path = line.slice(0, line.length - message.length - 2);
      // The shape holds the node id rules too: a broken one is coded as the rule check codes it.
      const code = NODE_ID_PATH.test(path) ? 'bad_node_id' : 'shape';
      return { code, path, message };
    });
    return { ok: false, issues };
  }
  const problems = checkGraphRules(parsed.data, { ids: 'node' });
  if (problems.length === 0) return { ok: true, graph: parsed.data };
  return { ok: false, issues: problems.map((p) => ({ code: p.rule, path: p.path, message: p.message })) };
}

/** The name a value that should be a graph goes by, for messages (`(unnamed)` when it has none). */
export function graphLabel(value: unknown): string {
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? JSON.stringify(name) : '(unnamed)';
}

/** One line per issue: `graph.edges[2].to: … (unknown_node)`. */
export function issueText(issues: readonly GraphIssue[]): string[] {
  return issues.map((issue) => `${issue.path}: ${issue.message} (${issue.code})`);
}
