/** An LLM plan as an agent graph (plan-as-graph.ts): the random-plan property is in graph-walk-property.test.ts. */
import fc from 'fast-check';
import { planToGraph, planWalk, selectStepsToStart } from '../../workflows/model/plan-as-graph';
import { readyNodes } from '../../workflows/model/graph/graph-walk';
import { STEP_STATUSES } from '../../workflows/model/state/step-run-schema';
import { checkGraphRules } from '../../workflows/model/graph/graph-rules';
import type { Plan, StepStatus } from '../../workflows/model/plan/plan-types';

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

/** Random plans over a few ids (dependencies only on earlier steps: a DAG) with random statuses. */
const planAndStatuses = fc.integer({ min: 1, max: 8 }).chain((n) => {
  const ids = Array.from({ length: n }, (_, i) => `s${i + 1}`);
  const deps = fc.tuple(...ids.map((_, i) => fc.subarray(ids.slice(0, i))));
  const statuses = fc.tuple(...ids.map(() => fc.constantFrom<StepStatus>(...STEP_STATUSES)));
  return fc.tuple(fc.constant(ids), deps, statuses);
});

test('property: a plan is scheduled by the walk of its graph, starting exactly the pending steps whose dependencies all completed', () => {
  fc.assert(
    fc.property(planAndStatuses, ([ids, deps, statuses]) => {
      const steps = ids.map((id, i) => ({ id, title: id, description: id, depends_on: deps[i] ?? [] }));
      const byId = Object.fromEntries(ids.map((id, i) => [id, statuses[i] ?? 'pending']));
      const oracle = steps
        .filter((step) => byId[step.id] === 'pending')
        .filter((step) => step.depends_on.every((dep) => byId[dep] === 'completed'))
        .map((step) => step.id);
      const graph = planToGraph({ ...plan, steps });
      expect([...readyNodes(planWalk(graph, byId), graph)].sort()).toEqual([...oracle].sort());
      expect([...selectStepsToStart({ ...plan, steps }, byId, 0)].sort()).toEqual([...oracle].sort());
    }),
  );
});
