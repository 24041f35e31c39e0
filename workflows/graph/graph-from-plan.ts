/**
 * An LLM plan as an agent graph, so planned and developer-defined agents can be scheduled by the
 * same walk (graph-walk.ts): each step a node, each dependency a plain edge `dependency → step`,
 * every node `join: "all"` (it runs once all its dependencies completed, as the plan scheduler
 * starts it), entries the steps with no dependencies, ends the steps nothing depends on. Step ids
 * stay node ids, so the first (only) visit's step id is the plan's step id. Pure.
 */
import type { Plan, StepStatus } from '../plan/plan-types';
import type { Graph } from './graph-schema';
import { ENTRY_EDGE, type Walk } from './graph-walk';

/**
 * The graph of a checked plan (`checkPlan` passed: unique ids, known dependencies, no cycle).
 * `maxIterations` is 1: every node runs once. A node's system prompt is its step's description
 * (the step's own instructions; the agent's system prompt stays the agent's). Check the result
 * with `checkGraphRules(graph, { ids: 'step' })`: plan step ids may end in `-<digits>`.
 */
export function planToGraph(plan: Plan): Graph {
  const dependents = new Set(plan.steps.flatMap((step) => step.depends_on));
  return {
    name: 'plan',
    description: plan.task,
    nodes: plan.steps.map((step) => ({
      id: step.id,
      title: step.title,
      systemPrompt: step.description,
      join: 'all' as const,
    })),
    edges: plan.steps.flatMap((step) => [...new Set(step.depends_on)].map((dep) => ({ from: dep, to: step.id }))),
    entry: plan.steps.filter((step) => step.depends_on.length === 0).map((step) => step.id),
    end: plan.steps.filter((step) => !dependents.has(step.id)).map((step) => step.id),
    maxIterations: 1,
  };
}

/**
 * The walk of a plan's graph (planToGraph) as its steps' statuses stand: every step that left
 * `pending` visited once, the running and waiting ones running, and each pending step fired by
 * the edges of its dependencies that completed (an entry by the entry edge). Its `readyNodes` are
 * the pending steps whose dependencies all completed — the plan scheduler starts from them.
 */
export function planWalk(graph: Graph, statuses: Record<string, StepStatus>): Walk {
  const status = (id: string): StepStatus => (Object.hasOwn(statuses, id) ? (statuses[id] ?? 'pending') : 'pending');
  const pending = graph.nodes.filter((node) => status(node.id) === 'pending').map((node) => node.id);
  const fired = Object.fromEntries(
    pending.map((id) => {
      const edges = graph.edges.flatMap((edge, index) =>
        edge.to === id && status(edge.from) === 'completed' ? [index] : [],
      );
      return [id, graph.entry.includes(id) ? [ENTRY_EDGE, ...edges] : edges];
    }),
  );
  const visited = graph.nodes.filter((node) => status(node.id) !== 'pending');
  const running = visited
    .filter((node) => status(node.id) === 'running' || status(node.id) === 'waiting')
    .map((node) => ({ node: node.id, visit: 1, stepId: node.id }));
  return { visits: Object.fromEntries(visited.map((node) => [node.id, 1])), fired, running, path: [] };
}
