/**
 * A graph visit's step input: the node's own system prompt, tools (its allow list over the
 * agent's catalogue), model and output schema, and the results of the visits whose edges led
 * here — nothing else. Pure over the run's state.
 */
import { stageModel } from '../../model/llm/model-stages';
import { workflowFailure } from '../../contract/failures';
import { ENTRY_EDGE, stepIdOf, type Walk, type WalkVisit } from '../../model/graph/graph-walk';
import type { Graph, GraphNode } from '../../model/graph/graph-schema';
import type { StepInput } from '../../step/step-types';
import type { ToolInfo } from '../../model/tools/tool-types';
import type { AgentRun } from '../agent-run';
import { stepInputOf } from '../run-step';

/** The node of `id` (the walk only names nodes of its graph). */
export function nodeOf(graph: Graph, id: string): GraphNode {
  const node = graph.nodes.find((n) => n.id === id);
  if (!node) throw workflowFailure('INVALID_INPUT', `the graph has no node "${id}"`);
  return node;
}

/** The nodes whose edges into `node` fired since its last visit, read before the visit starts. */
export function sourcesOf(walk: Walk, graph: Graph, node: string): string[] {
  const fired = Object.hasOwn(walk.fired, node) ? (walk.fired[node] ?? []) : [];
  const from = fired.filter((index) => index !== ENTRY_EDGE).map((index) => graph.edges[index]?.from);
  return [...new Set(from.filter((id): id is string => id !== undefined))];
}

/** The agent's tools a node may use: its allow list, or all of them. Unknown names fail the agent. */
export function nodeTools(node: GraphNode, tools: ToolInfo[]): ToolInfo[] {
  if (!node.tools) return tools;
  const unknown = node.tools.filter((name) => !tools.some((tool) => tool.name === name));
  if (unknown.length > 0)
    throw workflowFailure(
      'INVALID_INPUT',
      `node "${node.id}" lists tools this agent does not have: ${unknown.join(', ')} (it has ${tools.map((t) => t.name).join(', ') || 'none'})`,
    );
  return tools.filter((tool) => node.tools?.includes(tool.name));
}

/** The step input of `visit`, built on the latest visits of `sources`. */
export function visitInput(
  run: AgentRun,
  graph: Graph,
  walk: Walk,
  visit: WalkVisit,
  sources: string[],
  tools: ToolInfo[],
): StepInput {
  const node = nodeOf(graph, visit.node);
  const dependencies = sources.map((source) => {
    const stepId = stepIdOf(source, walk.visits[source] ?? 1);
    const done = run.board.get(stepId);
    return { id: stepId, title: done?.title ?? source, result: done?.result ?? '' };
  });
  const step = {
    id: visit.stepId,
    title: node.title ?? node.id,
    description: `Visit ${visit.visit} of node "${node.id}" of the agent graph "${graph.name}".`,
    depends_on: [],
  };
  const input = stepInputOf(run, run.settings.task, step, dependencies, nodeTools(node, tools));
  const model = node.model ?? stageModel(run.settings.model, run.settings.modelStages, 'step');
  return {
    ...input,
    ...(model ? { model } : {}),
    node: {
      id: node.id,
      visit: visit.visit,
      systemPrompt: node.systemPrompt,
      ...(node.output ? { output: node.output } : {}),
    },
  };
}
