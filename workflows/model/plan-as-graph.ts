/**
 * An LLM plan as an agent graph, so planned and developer-defined agents are walked by the same
 * walk (model/graph/graph-walk.ts, agent/walk.ts): each step a node, each dependency a plain edge
 * `dependency → step`, every node `join: "all"` (it runs once all its dependencies completed),
 * entries the steps with no dependencies, ends the steps nothing depends on. Step ids stay node
 * ids, so the first (only) visit's step id is the plan's step id. What stays the plan's own is
 * its order of ready steps (model/plan/scheduler.ts `longestPathFirst`) and when it replans. It sits
 * beside `plan/` and `graph/`, not in either, so that neither imports the other. Pure.
 */
import type { Plan, StepStatus } from './plan/plan-types';
import { longestPathFirst } from './plan/scheduler';
import type { Graph } from './graph/graph-schema';
import { ENTRY_EDGE, readyNodes, settle, type Walk } from './graph/graph-walk';

/**
 * The graph of a checked plan (`checkPlan` passed: unique ids, known dependencies, no cycle, so
 * the graph rules hold with `ids: 'step'` and need no second check). `maxIterations` is 1: every
 * node runs once. A node's system prompt is its step's description (the step's own
 * instructions; the agent's system prompt stays the agent's).
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
 * the pending steps whose dependencies all completed. With nothing running and nothing ready the
 * walk has ended: completed at a completed end step, else without reaching an end.
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
  const reached = graph.end.find((id) => status(id) === 'completed');
  const walk: Walk = {
    visits: Object.fromEntries(visited.map((node) => [node.id, 1])),
    fired,
    running,
    path: [],
    ...(reached === undefined ? {} : { endReached: { node: reached, stepId: reached } }),
  };
  return settle(walk, graph);
}

/**
 * Ids of the steps the walk starts now: `pending` steps whose dependencies all `completed`, at
 * most `maxParallel` minus the `running` and `waiting` ones (`maxParallel` ≤ 0, NaN or Infinity
 * means no cap), longest remaining path first, ties in plan order.
 */
export function selectStepsToStart(plan: Plan, statuses: Record<string, StepStatus>, maxParallel: number): string[] {
  const graph = planToGraph(plan);
  const walk = planWalk(graph, statuses);
  const ready = longestPathFirst(plan)(readyNodes(walk, graph));
  const unlimited = !(maxParallel > 0) || maxParallel === Infinity;
  if (unlimited) return ready;
  return ready.slice(0, Math.max(0, Math.floor(maxParallel) - walk.running.length));
}
