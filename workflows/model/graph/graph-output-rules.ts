/**
 * The output rules of agent graphs: a node's `output` must be a JSON Schema Cairn can check a
 * visit's output against (zod reads it; an unsupported type or an external `$ref` cannot be),
 * and it runs no regular expression (`pattern`, `patternProperties`, `format: "regex"`): the
 * check runs in workflow code, where a badly backtracking one would pin the thread every agent
 * of the worker shares. Checked with the graph, so a visit never meets such a schema. Pure.
 */
import { outputChecker } from '../tools/finish-step';
import { regexKeywordPaths } from '../tools/schema-regex';
import type { Graph } from './graph-schema';

/** One node whose output schema is refused: the rule, its path and why. */
export interface OutputProblem {
  rule: 'bad_output_schema' | 'output_schema_regex';
  path: string;
  message: string;
}

/** Every node whose `output` is not a JSON Schema Cairn can check, or runs a regular expression. */
export function outputProblems(graph: Graph): OutputProblem[] {
  return graph.nodes.flatMap((node, i): OutputProblem[] => {
    if (!node.output) return [];
    const base = `graph.nodes[${i}].output`;
    const regexes = regexKeywordPaths(node.output, base).map((path): OutputProblem => ({
      rule: 'output_schema_regex',
      path,
      message: `node "${node.id}": output schemas may not use regular expressions (pattern, patternProperties, format "regex")`,
    }));
    try {
      outputChecker(node.output);
      return regexes;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      const message = `node "${node.id}": output is not a usable JSON Schema: ${why}`;
      return [...regexes, { rule: 'bad_output_schema', path: base, message }];
    }
  });
}
