/**
 * How an agent graph reads to people (client/graphs/graph-display.ts, and the CLI's text built from it
 * in client/graphs/cli/render-graph.ts), on the example graphs: every node with its marks and every
 * edge under the node it leaves, with its condition; the loops a drawing must show apart; the
 * path a run took, one visit a line with its step id; each node's visits as the state shows
 * them. Expected lines are built from the example graphs' own nodes and edges.
 */
import { formatGraph, formatGraphPath, formatPath } from '../../client/graphs/cli/render-graph';
import { formatState } from '../../client/agents/cli/render';
import { loopEdges, nodeStates, nodeVisits, takenEdges, visitOfStep } from '../../client/graphs/graph-display';
import { graphSchema, type Graph, type GraphEdge } from '../../workflows/model/graph/graph-schema';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { routerGraph } from '../../examples/graphs/router';

const reviewLoop = graphSchema.parse(reviewLoopGraph);
const router = graphSchema.parse(routerGraph);

/** An edge's condition as the CLI writes it, from the edge's own fields. */
function expectedCondition(edge: GraphEdge): string {
  if (!edge.when) return '';
  if ('llm' in edge.when) return ` if "${edge.when.llm}"`;
  return ` if output.${edge.when.equals.path} = ${JSON.stringify(edge.when.equals.value)}`;
}

/** The output's lines after the heading, grouped by node: its line, then its edges' lines. */
function blocks(text: string): string[][] {
  const out: string[][] = [];
  for (const line of text.split('\n').slice(1)) {
    if (line.startsWith('  [')) out.push([line]);
    else out[out.length - 1]?.push(line);
  }
  return out;
}

describe.each([
  ['review loop', reviewLoop],
  ['router', router],
])('formatGraph of the %s example', (_name, graph: Graph) => {
  const text = formatGraph(graph);

  test('heads with the entry and end nodes and the bounds, defaults filled', () => {
    expect(text.split('\n')[0]).toBe(
      `graph ${graph.name}: entry ${graph.entry.join(', ')} · end ${graph.end.join(', ')} · at most ${graph.maxIterations} visits per node`,
    );
  });

  test('lists every node in order, with its title and marks, and each edge under the node it leaves', () => {
    const expected = graph.nodes.map((node) => {
      const marks = [
        graph.entry.includes(node.id) && 'entry',
        graph.end.includes(node.id) && 'end',
        node.join === 'all' && 'join all',
        node.output && 'structured output',
      ].filter(Boolean);
      const head = `  [${node.id}] ${node.title}${marks.length ? ` (${marks.join(', ')})` : ''}`;
      const edges = graph.edges.filter((e) => e.from === node.id).map((e) => `     → ${e.to}${expectedCondition(e)}`);
      return [head, ...edges];
    });
    expect(blocks(text)).toEqual(expected);
  });
});

test('the conditions read as the brief shows them: output.x = v, or the router text in quotes', () => {
  expect(formatGraph(reviewLoop)).toContain(
    '  [review] Review (end, structured output)\n     → revise if output.approved = false',
  );
  expect(formatGraph(router)).toContain('     → triage if "The message reports a bug."');
  expect(formatGraph(router)).toMatch(/→ answer$/m); // the plain fallback edge has no condition
  const timed = formatGraph({ ...router, timeoutMs: 60_000 });
  expect(timed.split('\n')[0]).toMatch(/ · at most 10 visits per node · timeout 60000 ms$/);
});

/** The review loop walked once round: draft → review (not approved) → revise → review (approved, end). */
const edge = (from: string, to: string) => {
  const found = reviewLoop.edges.find((e) => e.from === from && e.to === to);
  if (!found) throw new Error(`the review loop has no edge ${from} → ${to}`);
  return found;
};
const reason = (e: GraphEdge) =>
  e.when && 'equals' in e.when ? `output.${e.when.equals.path} equals ${JSON.stringify(e.when.equals.value)}` : '';
const walked = [
  { node: 'draft', visit: 1, stepId: 'draft', edge: { to: 'review', reason: reason(edge('draft', 'review')) } },
  { node: 'review', visit: 1, stepId: 'review', edge: { to: 'revise', reason: reason(edge('review', 'revise')) } },
  { node: 'revise', visit: 1, stepId: 'revise', edge: { to: 'review', reason: reason(edge('revise', 'review')) } },
  { node: 'review', visit: 2, stepId: 'review-2' },
];

test('formatPath: one visit a line with its step id, the edge taken and why; dropped visits counted first', () => {
  expect(formatPath({ path: walked }).split('\n')).toEqual([
    '  [draft] draft · visit 1 → review',
    '  [review] review · visit 1 → revise (output.approved equals false)',
    '  [revise] revise · visit 1 → review',
    '  [review-2] review · visit 2',
  ]);
  expect(formatPath({ path: walked.slice(2), pathDropped: 2 }).split('\n')).toEqual([
    '  … 2 earlier visits',
    '  [revise] revise · visit 1 → review',
    '  [review-2] review · visit 2',
  ]);
  expect(formatPath({ path: [] })).toBe('');
});

test('formatGraphPath heads the path with the graph; a planned agent has none', () => {
  expect(formatGraphPath({ graph: reviewLoop, path: walked })).toBe(
    `path (graph review-loop):\n${formatPath({ path: walked })}`,
  );
  expect(formatGraphPath({ graph: reviewLoop })).toBe('path (graph review-loop): no visit yet');
  expect(formatGraphPath({ path: walked })).toBeUndefined();
});

/** A step run of visit `id`, as the state keeps it. */
const run = (id: string, status: AgentState['steps'][number]['status']) =>
  ({
    id,
    title: id,
    status,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    toolCalls: [],
    rounds: 0,
    attempts: 1,
  }) as AgentState['steps'][number];

test('cairn show prints a graph agent path after its visits', () => {
  const steps = [
    run('draft', 'completed'),
    run('review', 'completed'),
    run('revise', 'completed'),
    run('review-2', 'running'),
  ];
  const state = {
    phase: 'executing',
    task: 't',
    revision: 0,
    steps,
    interactions: [],
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    graph: reviewLoop,
    path: walked,
  } as unknown as AgentState;
  const lines = formatState('agent-x', state).split('\n');
  expect(lines[0]).toBe('agent-x  executing  graph review-loop');
  const at = lines.indexOf('path (graph review-loop):');
  expect(at).toBeGreaterThan(lines.findIndex((line) => line.includes('[review-2] review-2')));
  expect(lines.slice(at + 1, at + 1 + walked.length)).toEqual(formatPath({ path: walked }).split('\n'));
  expect(formatState('agent-x', { ...state, graph: undefined, path: undefined })).not.toContain('path (graph');
});

test('loopEdges: the edge back into the review loop, none in the router; a self-loop; any entry order', () => {
  expect([...loopEdges(reviewLoop)]).toEqual([reviewLoop.edges.indexOf(edge('revise', 'review'))]);
  expect([...loopEdges(router)]).toEqual([]);
  const self = { ...reviewLoop, edges: [...reviewLoop.edges, { from: 'draft', to: 'draft' }] };
  expect([...loopEdges(self)].sort()).toEqual([
    reviewLoop.edges.indexOf(edge('revise', 'review')),
    reviewLoop.edges.length,
  ]);
  // Walked from `revise`, the loop closes on the other edge: still exactly one of the two.
  expect(loopEdges({ ...reviewLoop, entry: ['revise'] }).size).toBe(1);
});

test('visitOfStep and nodeVisits read visits from step ids, the path filling in what the steps lack', () => {
  const ids = new Set(reviewLoop.nodes.map((n) => n.id));
  expect(visitOfStep('review', ids)).toEqual({ node: 'review', visit: 1 });
  expect(visitOfStep('review-12', ids)).toEqual({ node: 'review', visit: 12 });
  expect(visitOfStep('s1', ids)).toBeUndefined();
  expect(visitOfStep('review-x', ids)).toBeUndefined();

  const steps = [
    run('draft', 'completed'),
    run('review', 'completed'),
    run('revise', 'completed'),
    run('review-2', 'running'),
  ];
  const visits = nodeVisits(reviewLoop, steps, walked);
  expect(Object.fromEntries([...visits].map(([id, v]) => [id, [v.visits, v.latest?.id, v.latest?.status]]))).toEqual({
    draft: [1, 'draft', 'completed'],
    review: [2, 'review-2', 'running'],
    revise: [1, 'revise', 'completed'],
  });
  // The path's visit numbers count even where the steps are not (yet) there.
  expect(nodeVisits(reviewLoop, [], [{ node: 'review', visit: 3, stepId: 'review-3' }]).get('review')?.visits).toBe(3);
});

test('nodeStates: visits, the latest visit status as people read it, the running visit current; takenEdges counts', () => {
  const steps = [
    run('draft', 'completed'),
    run('review', 'completed'),
    run('revise', 'completed'),
    run('review-2', 'running'),
  ];
  const running = { graph: reviewLoop, steps, path: walked, phase: 'executing' };
  expect(Object.fromEntries(nodeStates(running))).toEqual({
    draft: { visits: 1, status: 'completed', current: false },
    review: { visits: 2, status: 'running', current: true },
    revise: { visits: 1, status: 'completed', current: false },
  });
  // Held, the running visit reads paused (and still is the current one); unvisited nodes of an ended agent were not run.
  const held = nodeStates({ ...running, phase: 'paused', hold: { reasons: ['pause'] } });
  expect(held.get('review')).toEqual({ visits: 2, status: 'paused', current: true });
  const ended = nodeStates({ graph: reviewLoop, steps: [run('draft', 'failed')], phase: 'failed' });
  expect([ended.get('draft')?.status, ended.get('review')?.status]).toEqual(['failed', 'not run']);
  expect(Object.fromEntries(takenEdges(walked))).toEqual({ 'draft→review': 1, 'review→revise': 1, 'revise→review': 1 });
});
