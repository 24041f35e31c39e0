/** An LLM plan as an agent graph (graph-from-plan.ts): the random-plan property is in graph-walk-property.test.ts. */
import { planToGraph } from '../../workflows/graph/graph-from-plan';
import { checkGraphRules } from '../../workflows/graph/graph-rules';
import type { Plan } from '../../workflows/plan/plan-types';

const plan: Plan = {
  task: 'compare two libraries',
  language: 'en',
  steps: [
    { id: 'step-2', title: 'Read B', description: 'read b', depends_on: [] },
    { id: 'compare', title: 'Compare', description: 'compare', depends_on: ['step-1', 'step-2', 'step-1'] },
    { id: 'step-1', title: 'Read A', description: 'read a', depends_on: [] },
  ],
  replan: [],
};

test('steps become join-all nodes, dependencies plain edges, entries the free steps, ends the steps nobody needs', () => {
  const graph = planToGraph(plan);
  expect(graph.nodes).toEqual([
    { id: 'step-2', title: 'Read B', systemPrompt: 'read b', join: 'all' },
    { id: 'compare', title: 'Compare', systemPrompt: 'compare', join: 'all' },
    { id: 'step-1', title: 'Read A', systemPrompt: 'read a', join: 'all' },
  ]);
  expect(graph.edges).toEqual([
    { from: 'step-1', to: 'compare' },
    { from: 'step-2', to: 'compare' },
  ]);
  expect([graph.entry, graph.end, graph.maxIterations]).toEqual([['step-2', 'step-1'], ['compare'], 1]);
  expect(checkGraphRules(graph, { ids: 'step' })).toEqual([]);
});
