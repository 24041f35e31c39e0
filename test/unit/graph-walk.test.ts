/** Agent graphs: how a node is left (graph-exits.ts) and the walk's transitions (graph-walk.ts). */
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { routerGraph } from '../../examples/graphs/router';
import type { VisitDecision } from '../../workflows/model/graph/graph-exits';
import { chooseExit, exitsOf, jsonEquals, routeChoices, valueAt } from '../../workflows/model/graph/graph-exits';
import type { GraphInput } from '../../workflows/model/graph/graph-schema';
import { graphSchema } from '../../workflows/model/graph/graph-schema';
import type { Walk } from '../../workflows/model/graph/graph-walk';
import { leaveVisit, readyNodes, startVisits, startWalk, stepIdOf } from '../../workflows/model/graph/graph-walk';

const node = (id: string, more: object = {}) => ({ id, systemPrompt: `be ${id}`, ...more });
const parse = (input: GraphInput) => graphSchema.parse(input);
const review = parse(reviewLoopGraph);
const router = parse(routerGraph);

/** Starts every ready node, then leaves the running visit `stepId` with `decision`. */
function step(walk: Walk, graph: ReturnType<typeof parse>, stepId: string, decision?: VisitDecision): Walk {
  return leaveVisit(walk, graph, stepId, decision).walk;
}
function startReady(walk: Walk, graph: ReturnType<typeof parse>): Walk {
  return startVisits(walk, graph, readyNodes(walk, graph)).walk;
}

test('stepIdOf: the node id for the first visit, <node>-<n> after', () => {
  expect([1, 2, 10].map((visit) => stepIdOf('review', visit))).toEqual(['review', 'review-2', 'review-10']);
});

describe('exitsOf', () => {
  test('plain edges only fan out; conditional edges keep their order and one plain fallback; none ends the branch', () => {
    const g = parse({
      name: 'g',
      nodes: [node('a'), node('b'), node('c')],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'a', to: 'c' },
      ],
      entry: ['a'],
      end: ['b', 'c'],
    });
    expect(exitsOf(g, 'a')).toEqual({
      kind: 'fan-out',
      edges: [
        { ...g.edges[0], index: 0 },
        { ...g.edges[1], index: 1 },
      ],
    });
    expect(exitsOf(g, 'b')).toEqual({ kind: 'end-of-branch' });
    const exits = exitsOf(router, 'classify');
    expect(exits.kind === 'conditional' && exits.edges.map((e) => e.to)).toEqual(['triage', 'spec']);
    expect(exits.kind === 'conditional' && exits.fallback?.to).toBe('answer');
  });
});

describe('routing', () => {
  test('the router chooses among the llm edges; null or an unknown target falls back to the plain edge', () => {
    expect(routeChoices(router, 'classify').map((e) => e.to)).toEqual(['triage', 'spec']);
    const take = (routed: VisitDecision['routed']) => chooseExit(router, 'classify', { routed });
    expect(take({ to: 'spec', reason: 'asks for a feature' })).toEqual({
      edges: [{ ...router.edges[1], index: 1 }],
      reason: 'asks for a feature',
    });
    expect(take({ to: null, reason: 'a question' }).edges.map((e) => e.to)).toEqual(['answer']);
    expect(take({ to: null, reason: 'a question' }).reason).toBe('a question');
    expect(take({ to: 'answer', reason: 'not a candidate' }).edges.map((e) => e.to)).toEqual(['answer']);
    expect(take(undefined)).toEqual({ edges: [{ ...router.edges[2], index: 2 }], reason: 'no condition held' });
  });

  const mixed = parse({
    name: 'mixed',
    nodes: [node('a', { output: { type: 'object' } }), node('b'), node('c'), node('d')],
    edges: [
      { from: 'a', to: 'b', when: { llm: 'urgent' } },
      { from: 'a', to: 'c', when: { equals: { path: 'kind.name', value: { x: [1, 'y'] } } } },
      { from: 'a', to: 'd', when: { llm: 'later' } },
    ],
    entry: ['a'],
    end: ['a', 'b', 'c', 'd'],
  });

  test('only llm edges before the first equals edge that holds are candidates', () => {
    const holds = { kind: { name: { x: [1, 'y'] } } };
    expect(routeChoices(mixed, 'a', holds).map((e) => e.to)).toEqual(['b']);
    expect(routeChoices(mixed, 'a', { kind: { name: 'other' } }).map((e) => e.to)).toEqual(['b', 'd']);
    expect(chooseExit(mixed, 'a', { output: holds, routed: { to: 'd', reason: 'r' } }).edges.map((e) => e.to)).toEqual([
      'c',
    ]);
    expect(chooseExit(mixed, 'a', { output: holds, routed: { to: 'b', reason: 'r' } }).edges.map((e) => e.to)).toEqual([
      'b',
    ]);
    expect(chooseExit(mixed, 'a', { output: {}, routed: { to: null, reason: 'neither' } })).toEqual({
      edges: [],
      reason: 'neither',
    });
  });

  test('equals compares JSON deeply, key order aside; paths read own properties and array items', () => {
    expect(jsonEquals({ a: 1, b: [true, null] }, { b: [true, null], a: 1 })).toBe(true);
    expect(jsonEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEquals([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(jsonEquals(1, '1')).toBe(false);
    expect(valueAt({ items: [{ ok: false }] }, 'items.0.ok')).toEqual({ found: true, value: false });
    expect(valueAt({}, 'constructor').found).toBe(false);
    expect(valueAt(undefined, 'a').found).toBe(false);
  });
});

describe('the review loop', () => {
  test('ends at approval on visit 2, the path naming each visit and the edge it took', () => {
    let walk = startReady(startWalk(review), review);
    walk = startReady(step(walk, review, 'draft'), review);
    walk = startReady(step(walk, review, 'review', { output: { approved: false, feedback: 'shorter' } }), review);
    walk = startReady(step(walk, review, 'revise'), review);
    expect(walk.running).toEqual([{ node: 'review', visit: 2, stepId: 'review-2' }]);
    walk = step(walk, review, 'review-2', { output: { approved: true, feedback: '' } });
    expect(walk.ended).toEqual({ status: 'completed', node: 'review', stepId: 'review-2' });
    expect(walk.path).toEqual([
      { node: 'draft', visit: 1, stepId: 'draft', edge: { to: 'review', reason: 'plain edge' } },
      { node: 'review', visit: 1, stepId: 'review', edge: { to: 'revise', reason: 'output.approved equals false' } },
      { node: 'revise', visit: 1, stepId: 'revise', edge: { to: 'review', reason: 'plain edge' } },
      { node: 'review', visit: 2, stepId: 'review-2' },
    ]);
    expect(JSON.parse(JSON.stringify(walk))).toEqual(walk);
  });

  test('a reviewer that never approves stops the walk with max_iterations before visit 4', () => {
    let walk = startReady(startWalk(review), review);
    const no = { output: { approved: false, feedback: 'no' } };
    for (let visit = 1; !walk.ended; visit += 1) {
      walk = startReady(step(walk, review, visit === 1 ? 'draft' : stepIdOf('revise', visit - 1)), review);
      walk = startReady(step(walk, review, stepIdOf('review', visit), no), review);
    }
    expect(walk.ended).toEqual({ status: 'stopped', stopReason: 'max_iterations', node: 'review' });
    expect(walk.visits).toEqual({ draft: 1, review: 3, revise: 3 });
    expect(walk.running).toEqual([]);
  });
});

describe('joins and ends', () => {
  const fan = (join: 'all' | 'any') =>
    parse({
      name: 'fan',
      nodes: [node('a'), node('b'), node('c'), node('d', { join })],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'a', to: 'c' },
        { from: 'b', to: 'd' },
        { from: 'c', to: 'd' },
      ],
      entry: ['a'],
      end: ['d'],
    });

  test('a fan-out runs its targets together; join all waits for every incoming edge', () => {
    const g = fan('all');
    let walk = startReady(step(startReady(startWalk(g), g), g, 'a'), g);
    expect(walk.running.map((v) => v.stepId)).toEqual(['b', 'c']);
    expect(walk.path[0]?.edge).toBeUndefined();
    walk = step(walk, g, 'b');
    expect(readyNodes(walk, g)).toEqual([]);
    walk = startReady(step(walk, g, 'c'), g);
    expect(walk.running.map((v) => v.stepId)).toEqual(['d']);
    expect(step(walk, g, 'd').ended).toEqual({ status: 'completed', node: 'd', stepId: 'd' });
  });

  test('join any runs on the first edge; an edge fired while the node runs counts for its next visit', () => {
    const g = fan('any');
    let walk = startReady(step(startReady(startWalk(g), g), g, 'a'), g);
    walk = startReady(step(walk, g, 'b'), g);
    expect(walk.running.map((v) => v.stepId)).toEqual(['c', 'd']);
    walk = step(walk, g, 'c');
    expect(readyNodes(walk, g)).toEqual([]);
    walk = startReady(step(walk, g, 'd'), g);
    expect(walk.running.map((v) => v.stepId)).toEqual(['d-2']);
    expect(walk.ended).toBeUndefined();
    expect(step(walk, g, 'd-2').ended).toEqual({ status: 'completed', node: 'd', stepId: 'd' });
  });

  test('an end reached while a branch runs completes once it is done, with the end reached first', () => {
    const g = parse({
      name: 'g',
      nodes: [node('a'), node('fast'), node('slow'), node('last')],
      edges: [
        { from: 'a', to: 'fast' },
        { from: 'a', to: 'slow' },
        { from: 'slow', to: 'last' },
      ],
      entry: ['a'],
      end: ['fast', 'last'],
    });
    let walk = startReady(step(startReady(startWalk(g), g), g, 'a'), g);
    walk = step(walk, g, 'fast');
    expect(walk.ended).toBeUndefined();
    walk = startReady(step(walk, g, 'slow'), g);
    expect(step(walk, g, 'last').ended).toEqual({ status: 'completed', node: 'fast', stepId: 'fast' });
  });

  test('a branch that ends with no end node reached fails the walk with no_end_reached', () => {
    const g = parse({
      name: 'g',
      nodes: [node('a'), node('b')],
      edges: [{ from: 'a', to: 'b', when: { llm: 'needed' } }],
      entry: ['a'],
      end: ['b'],
    });
    const walk = step(startReady(startWalk(g), g), g, 'a', { routed: { to: null, reason: 'not needed' } });
    expect(walk.ended).toEqual({ status: 'failed', reason: 'no_end_reached' });
  });

  test('an unknown step id, a node that is not ready, or an ended walk change nothing', () => {
    const walk = startReady(startWalk(router), router);
    expect(leaveVisit(walk, router, 'ghost')).toEqual({ walk, taken: [] });
    expect(startVisits(walk, router, ['triage', 'classify'])).toEqual({ walk, started: [] });
    const ended = step(walk, router, 'classify', { routed: { to: 'triage', reason: 'a bug' } });
    const done = step(startReady(ended, router), router, 'triage');
    expect(done.ended?.status).toBe('completed');
    expect(readyNodes(done, router)).toEqual([]);
    expect(leaveVisit(done, router, 'triage')).toEqual({ walk: done, taken: [] });
  });
});
