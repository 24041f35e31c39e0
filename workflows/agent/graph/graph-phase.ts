/**
 * A graph agent, from its check to its end: the graph is shown at the plan check (with
 * `confirmPlan`: confirm or cancel — a graph is not revised or edited there), then walked
 * (walk-loop.ts, as a plan is) until an end node is reached; the agent's answer is that end visit's
 * result. A long walk rolls over with its position and counters carried; the next run goes on.
 */
import type { AgentResult } from '../../model/agent/agent-contract';
import { stepFailed, workflowFailure } from '../../contract/failures';
import type { Graph } from '../../model/graph/graph-schema';
import { startWalk, type Walk } from '../../model/graph/graph-walk';
import type { ToolInfo } from '../../model/tools/tool-types';
import type { AgentCarry } from '../../model/agent/agent-carry';
import { finish } from '../agent-finish';
import { askPlanCheck } from '../planning/plan-check';
import type { AgentRun } from '../agent-run';
import { runWalk, type WalkRules } from '../walk-loop';
import { keepBounded } from './graph-bounds';
import { visitInput } from './visit-input';

/** How the graph phase ended: the agent's result, or the carry for the next run. */
export type GraphPhaseEnd = AgentResult | { rollOver: AgentCarry };

/** The decisions a graph's plan check takes. */
const GRAPH_DECISIONS: ('confirm' | 'cancel')[] = ['confirm', 'cancel'];

export async function runGraph(
  run: AgentRun,
  graph: Graph,
  tools: ToolInfo[],
  carry?: AgentCarry,
): Promise<GraphPhaseEnd> {
  const { settings, state } = run;
  if (!state.graph) {
    state.graph = graph;
    const nodes = graph.nodes.map((node) => node.id).join(', ');
    run.event({ type: 'plan.created', message: `graph ${graph.name}: ${nodes}` });
  }
  if (carry?.resumeAt !== 'execute' && settings.mode.confirmPlan && !settings.nested) {
    const answer = await askPlanCheck(run, () => ({
      kind: 'plan.check',
      prompt: 'Check the graph',
      graph,
      revision: 1,
      decisions: GRAPH_DECISIONS,
    }));
    if (answer === 'roll-over') return { rollOver: run.carry('plan-check', tools) };
    if (answer.decision !== 'confirm') return finish(run, { kind: 'cancelled', by: 'plan-check' });
  }
  const from: Walk = carry?.walk ? { ...carry.walk, running: [], path: state.path ?? [] } : startWalk(graph);
  run.setPhase('executing');
  const { outcome, walk } = await runWalk(run, graph, from, graphRules(run, graph, tools));
  switch (outcome.kind) {
    case 'failed':
      throw stepFailed({ stepId: outcome.stepId, code: outcome.code }, outcome.error);
    case 'no-end':
      throw workflowFailure('GRAPH_NO_END', `graph ${graph.name}: nothing runs and no end node was reached`);
    case 'roll-over': {
      const { visits, fired, endReached } = walk;
      return {
        rollOver: { ...run.carry('execute', tools), walk: { visits, fired, ...(endReached ? { endReached } : {}) } },
      };
    }
    case 'max-iterations':
      return finish(run, { kind: 'stopped', reason: 'max_iterations' });
    case 'done':
      return finish(run, { kind: 'completed', answer: run.board.get(outcome.stepId)?.result ?? '' });
    case 'replan':
      throw new Error('a graph never replans');
  }
}

/**
 * A graph's rules: ready nodes start in graph order, it never replans, a visit's input is its
 * node's (visit-input.ts), and the state keeps the walk's path, bounded (graph-bounds.ts).
 */
function graphRules(run: AgentRun, graph: Graph, tools: ToolInfo[]): WalkRules {
  return {
    order: (nodes) => [...nodes],
    replanAfter: () => false,
    step: (visit, sources, walk) => ({
      input: visitInput(run, graph, walk, visit, sources, tools),
      summary: `${visit.node} · visit ${visit.visit}`,
    }),
    kept: (walk) => keepBounded(run, walk),
  };
}
