/**
 * Properties of the graph walk (graph-walk.ts) against an independent model of §6.3's rules:
 * random valid graphs walked with random outputs, router replies, start choices and completion
 * orders; and plans turned into graphs (plan-as-graph.ts) walked like the plan scheduler runs them.
 */
import fc from 'fast-check';
import { routeChoices } from '../../workflows/model/graph/graph-exits';
import { planToGraph, selectStepsToStart } from '../../workflows/model/plan-as-graph';
import type { GraphRule } from '../../workflows/model/graph/graph-rules';
import { checkGraphRules } from '../../workflows/model/graph/graph-rules';
import type { Graph, GraphEdge } from '../../workflows/model/graph/graph-schema';
import { graphSchema } from '../../workflows/model/graph/graph-schema';
import type { Walk } from '../../workflows/model/graph/graph-walk';
import { leaveVisit, readyNodes, startVisits, startWalk, stepIdOf } from '../../workflows/model/graph/graph-walk';
import type { Plan, PlanStep, StepStatus } from '../../workflows/model/plan/plan-types';

type Gen = fc.GeneratorValue;
const pick = <T>(g: Gen, items: T[]): T | undefined => items[g(fc.nat, { max: Math.max(0, items.length - 1) })];

/** Random graphs: every node reachable from `n0` by a spanning edge, extra edges, conditions and joins. */
const rawGraphArb = fc.integer({ min: 1, max: 7 }).chain((n) => {
  const ids = Array.from({ length: n }, (_, i) => `n${i}`);
  const when = fc.oneof(fc.constant(undefined), fc.constant('llm' as const), fc.integer({ min: 0, max: 2 }));
  const edge = (from: fc.Arbitrary<number>) => fc.record({ from, to: fc.nat(n - 1), when });
  return fc.record({
    ids: fc.constant(ids),
    spine: fc.tuple(...ids.slice(1).map((_, i) => fc.record({ from: fc.nat(i), to: fc.constant(i + 1), when }))),
    extra: fc.array(edge(fc.nat(n - 1)), { maxLength: 2 * n }),
    joins: fc.tuple(...ids.map(() => fc.constantFrom(undefined, 'all' as const, 'any' as const))),
    entries: fc.subarray(ids.slice(1)),
    ends: fc.subarray(ids, { minLength: 1 }),
    maxIterations: fc.integer({ min: 1, max: 4 }),
  });
});

/** The random graph, its exits made unambiguous (a conditional node's extra plain edges become `llm`). */
const graphArb = rawGraphArb.map(({ ids, spine, extra, joins, entries, ends, maxIterations }): Graph => {
  const edges: GraphEdge[] = [...spine, ...extra].map(({ from, to, when }) => ({
    from: `n${from}`,
    to: `n${to}`,
    ...(when === undefined
      ? {}
      : when === 'llm'
        ? { when: { llm: 'c' } }
        : { when: { equals: { path: 'v', value: when } } }),
  }));
  const conditional = new Set(edges.filter((e) => e.when).map((e) => e.from));
  const plainSeen = new Set<string>();
  const fixed = edges.map((e) => {
    if (e.when) return e;
    const key = `${e.from}>${e.to}`;
    const extraPlain =
      plainSeen.has(key) || (conditional.has(e.from) && [...plainSeen].some((k) => k.startsWith(`${e.from}>`)));
    plainSeen.add(key);
    return extraPlain ? { ...e, when: { llm: 'c' } } : e;
  });
  return graphSchema.parse({
    name: 'random',
    nodes: ids.map((id, i) => ({
      id,
      systemPrompt: 'p',
      output: { type: 'object' },
      ...(joins[i] ? { join: joins[i] } : {}),
    })),
    edges: fixed,
    entry: ['n0', ...entries],
    end: ends,
    maxIterations,
  });
});

/** The model: what may start, by §6.3 alone (fires counted from the edges `leaveVisit` reports taken). */
interface Model {
  visits: Map<string, number>;
  fires: Map<string, Set<number>>;
  running: Set<string>;
  firstEnd?: { node: string; stepId: string };
}
function modelReady(graph: Graph, m: Model): string[] {
  return graph.nodes
    .filter((node) => !m.running.has(node.id))
    .filter((node) => {
      if (graph.entry.includes(node.id) && !m.visits.has(node.id)) return true;
      const fired = m.fires.get(node.id) ?? new Set();
      const incoming = graph.edges.flatMap((e, i) => (e.to === node.id ? [i] : []));
      return node.join === 'all' ? fired.size > 0 && incoming.every((i) => fired.has(i)) : fired.size > 0;
    })
    .map((node) => node.id);
}
/** The edges §6.3 says a visit takes, evaluated independently of graph-exits.ts. */
function modelExit(
  graph: Graph,
  node: string,
  output: { v: number } | undefined,
  to: string | null | undefined,
): number[] {
  const out = graph.edges.flatMap((e, i) => (e.from === node ? [{ e, i }] : []));
  if (out.every(({ e }) => !e.when)) return out.map(({ i }) => i);
  const holds = out.find(({ e }) =>
    e.when === undefined ? false : 'llm' in e.when ? to === e.to : output?.v === e.when.equals.value,
  );
  const fallback = out.find(({ e }) => !e.when);
  return holds ? [holds.i] : fallback ? [fallback.i] : [];
}

/** Rules about what a run can reach: a graph breaking only these still walks, and each problem must come true. */
const RUN_RULES: GraphRule[] = ['unreachable_node', 'no_end_reachable', 'end_always_leaves', 'join_never_fires'];

test('property: a graph is walked only by its edges, joins and bounds, the walk ends, and what the rules predict holds', () => {
  fc.assert(
    fc.property(graphArb, fc.gen(), (graph, g) => {
      const problems = checkGraphRules(graph);
      fc.pre(problems.every((p) => RUN_RULES.includes(p.rule)));
      const nodeAt = (path: string) => graph.nodes[Number(/^graph\.nodes\[(\d+)\]/.exec(path)?.[1])]?.id;
      const edgeAt = (path: string) => graph.edges[Number(/^graph\.edges\[(\d+)\]/.exec(path)?.[1])]?.to;
      const m: Model = { visits: new Map(), fires: new Map(), running: new Set() };
      let walk: Walk = startWalk(graph);
      const bound = graph.nodes.length * graph.maxIterations + 1;
      for (let round = 0; !walk.ended; round++) {
        expect(round).toBeLessThanOrEqual(bound);
        const ready = readyNodes(walk, graph);
        expect(ready).toEqual(modelReady(graph, m));
        const chosen = ready.filter(() => g(fc.boolean));
        if (chosen.length === 0 && m.running.size === 0 && ready[0]) chosen.push(ready[0]);
        const started = startVisits(walk, graph, chosen);
        walk = started.walk;
        if (walk.ended) {
          const over = walk.ended.status === 'stopped' ? walk.ended.node : '';
          expect(walk.ended).toEqual({ status: 'stopped', stopReason: 'max_iterations', node: over });
          expect(chosen).toContain(over);
          expect(m.visits.get(over)).toBe(graph.maxIterations);
          break;
        }
        expect(started.started.map((v) => v.node)).toEqual(chosen);
        for (const { node, visit, stepId } of started.started) {
          const count = (m.visits.get(node) ?? 0) + 1;
          expect([visit, stepId]).toEqual([count, stepIdOf(node, count)]);
          expect(count).toBeLessThanOrEqual(graph.maxIterations);
          m.visits.set(node, count);
          m.fires.set(node, new Set());
          m.running.add(node);
        }
        expect(new Set(walk.running.map((v) => v.node))).toEqual(m.running);
        const leaving = pick(g, walk.running);
        if (!leaving) throw new Error('nothing runs and the walk has not ended');
        const output = g(fc.boolean) ? { v: g(fc.integer, { min: 0, max: 2 }) } : undefined;
        const choices = routeChoices(graph, leaving.node, output).map((e) => e.to);
        const to = choices.length > 0 ? (pick(g, [...choices, null]) ?? null) : undefined;
        const routed = to === undefined ? undefined : { to, reason: 'r' };
        const left = leaveVisit(walk, graph, leaving.stepId, { output, routed });
        expect(left.taken.map((e) => e.index)).toEqual(modelExit(graph, leaving.node, output, to));
        m.running.delete(leaving.node);
        for (const edge of left.taken) m.fires.set(edge.to, (m.fires.get(edge.to) ?? new Set()).add(edge.index));
        if (left.taken.length === 0 && graph.end.includes(leaving.node))
          m.firstEnd ??= { node: leaving.node, stepId: leaving.stepId };
        walk = left.walk;
      }
      const visited = new Set(walk.path.map((v) => v.node));
      for (const { rule, path } of problems) {
        if (rule === 'unreachable_node') expect(visited.has(nodeAt(path) ?? '')).toBe(false);
        if (rule === 'join_never_fires') expect(visited.has(edgeAt(path) ?? '')).toBe(false);
        if (rule === 'end_always_leaves')
          expect(m.firstEnd?.node).not.toBe(graph.end[Number(/\[(\d+)\]/.exec(path)?.[1])]);
        if (rule === 'no_end_reachable' && (path === 'graph.end' || visited.has(nodeAt(path) ?? ''))) {
          expect(walk.ended?.status).not.toBe('completed');
        }
      }
      if (walk.ended?.status === 'stopped') return;
      expect(m.running.size).toBe(0);
      expect(modelReady(graph, m)).toEqual([]);
      if (m.firstEnd) expect(walk.ended).toEqual({ status: 'completed', ...m.firstEnd });
      else expect(walk.ended).toEqual({ status: 'failed', reason: 'no_end_reached' });
      expect(JSON.parse(JSON.stringify(walk))).toEqual(walk);
    }),
    { numRuns: 500 },
  );
});

/** Plan step ids as plans allow them (`step-1` included), never an `Object.prototype` name. */
const stepIdArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).filter((id) => !(id in Object.prototype));
const step = (id: string, depends_on: string[]): PlanStep => ({ id, title: id, description: `do ${id}`, depends_on });

/** A random valid plan: step j depends only on steps generated before it; listed shuffled. */
const planArb = fc
  .uniqueArray(stepIdArb, { minLength: 1, maxLength: 15 })
  .chain((ids) => fc.tuple(...ids.map((_, j) => fc.subarray(ids.slice(0, j)))).map((deps) => ({ ids, deps })))
  .chain(({ ids, deps }) =>
    fc.shuffledSubarray(
      ids.map((id, j) => step(id, deps[j] ?? [])),
      { minLength: ids.length },
    ),
  )
  .map((steps): Plan => ({ task: 't', language: 'en', steps, replan: [] }));

test('property: a plan as a graph is valid, and its walk runs each step once, after its dependencies, as the scheduler would', () => {
  fc.assert(
    fc.property(planArb, fc.gen(), (plan, g) => {
      const graph = planToGraph(plan);
      expect(checkGraphRules(graph, { ids: 'step' })).toEqual([]);
      const statuses: Record<string, StepStatus> = {};
      let walk = startWalk(graph);
      for (let round = 0; !walk.ended; round++) {
        expect(round).toBeLessThanOrEqual(plan.steps.length);
        const ready = readyNodes(walk, graph);
        expect([...ready].sort()).toEqual([...selectStepsToStart(plan, statuses, 0)].sort());
        const chosen = ready.filter(() => g(fc.boolean));
        if (chosen.length === 0 && walk.running.length === 0 && ready[0]) chosen.push(ready[0]);
        const started = startVisits(walk, graph, chosen);
        for (const visit of started.started) {
          expect(visit.stepId).toBe(visit.node);
          const deps = plan.steps.find((s) => s.id === visit.node)?.depends_on ?? [];
          for (const dep of deps) expect(statuses[dep]).toBe('completed');
          statuses[visit.node] = 'running';
        }
        const leaving = pick(g, started.walk.running);
        if (!leaving) throw new Error('nothing runs and the walk has not ended');
        statuses[leaving.node] = 'completed';
        walk = leaveVisit(started.walk, graph, leaving.stepId).walk;
      }
      expect(walk.ended?.status).toBe('completed');
      expect(walk.path.map((v) => v.stepId).sort()).toEqual(plan.steps.map((s) => s.id).sort());
      expect(Object.values(walk.visits).every((n) => n === 1)).toBe(true);
    }),
    { numRuns: 300 },
  );
});
