/**
 * The output rule of agent graphs: a node's `output` must be a JSON Schema Cairn can check a
 * visit's output against (zod reads it; an unsupported type, an external `$ref` or a broken
 * pattern cannot be). Checked with the graph, so a visit never meets a schema it cannot read.
 * Pure.
 */
import { outputChecker } from '../tools/finish-step';
import type { Graph } from './graph-schema';

/** One node whose output schema cannot be read: its path and why. */
export interface OutputProblem {
  path: string;
  message: string;
}

/** Every node whose `output` is not a JSON Schema Cairn can check. */
export function outputProblems(graph: Graph): OutputProblem[] {
  return graph.nodes.flatMap((node, i) => {
    if (!node.output) return [];
    try {
      outputChecker(node.output);
      return [];
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return [
        { path: `graph.nodes[${i}].output`, message: `node "${node.id}": output is not a usable JSON Schema: ${why}` },
      ];
    }
  });
}
