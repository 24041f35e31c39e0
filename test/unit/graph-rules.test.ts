/** Agent graphs: the input's shape (graph-schema.ts) and every rule between its parts (graph-rules.ts). */
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { routerGraph } from '../../examples/graphs/router';
import type { GraphProblem } from '../../workflows/model/graph/graph-rules';
import { GRAPH_RULES, checkGraphRules } from '../../workflows/model/graph/graph-rules';
import type { Graph, GraphInput } from '../../workflows/model/graph/graph-schema';
import { DEFAULT_MAX_ITERATIONS, graphSchema } from '../../workflows/model/graph/graph-schema';

const node = (id: string, more: Partial<Graph['nodes'][number]> = {}) => ({ id, systemPrompt: `be ${id}`, ...more });
const graph = (more: Partial<GraphInput>): Graph =>
  graphSchema.parse({ name: 'g', nodes: [node('a')], entry: ['a'], end: ['a'], ...more });
/** A graph that skips the schema, as code building one (or planToGraph) may hand the rules. */
const raw = (more: Partial<Graph>): Graph => ({ ...graph({}), ...more });
/** An output schema with two regular expressions, beside a property merely named "pattern". */
const REGEX_OUTPUT = {
  properties: { pattern: { type: 'string', pattern: '^(a+)+$' }, m: { patternProperties: { x: {} } } },
};
const rules = (problems: GraphProblem[]) => problems.map((p) => `${p.rule} ${p.path}`);

describe('the examples', () => {
  test.each([
    ['review loop', reviewLoopGraph],
    ['router', routerGraph],
  ])('the %s parses and breaks no rule', (_name, input) => {
    const parsed = graphSchema.parse(input);
    expect(checkGraphRules(parsed)).toEqual([]);
  });

  test('defaults: no edges, maxIterations 10', () => {
    const parsed = graphSchema.parse({ name: 'g', nodes: [node('a')], entry: ['a'], end: ['a'] });
    expect(parsed.edges).toEqual([]);
    // The documented default (docs/graphs.md, "The graph": `"maxIterations": 10, // default 10`),
    // as a literal: a changed constant must fail here, not follow along.
    expect(parsed.maxIterations).toBe(10);
    expect(DEFAULT_MAX_ITERATIONS).toBe(10);
  });
});

describe('the schema', () => {
  const issues = (input: unknown) => {
    const parsed = graphSchema.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
  };
  const base = { name: 'g', nodes: [node('a')], entry: ['a'], end: ['a'] };

  test.each([
    ['a'.repeat(33), 'longer than 32'],
    ['review-2', 'ends in -<digits>'],
    ['a b', 'a space'],
    ['constructor', 'a prototype name'],
    ['', 'empty'],
  ])('refuses node id %p (%s)', (id) => {
    expect(issues({ ...base, nodes: [node(id)] })).toEqual(['nodes.0.id']);
  });

  test('accepts ids with digits or dashes inside', () => {
    expect(issues({ ...base, nodes: [node('step-2b'), node('a')] })).toEqual([]);
    expect(issues({ ...base, nodes: [node('a'.repeat(32))], entry: ['x'], end: ['x'] })).toEqual([]);
  });

  test('needs nodes, an entry and an end; refuses unknown keys and bad conditions', () => {
    expect(issues({ ...base, nodes: [] })).toEqual(['nodes']);
    expect(issues({ ...base, entry: [], end: [] })).toEqual(['entry', 'end']);
    expect(issues({ ...base, extra: 1 })).toEqual(['']);
    expect(issues({ ...base, edges: [{ from: 'a', to: 'a', when: { llm: '' } }] })).toEqual(['edges.0.when.llm']);
    expect(issues({ ...base, edges: [{ from: 'a', to: 'a', when: { equals: { path: 'a..b', value: 1 } } }] })).toEqual([
      'edges.0.when.equals.path',
    ]);
    expect(issues({ ...base, nodes: [node('a', { join: 'some' as 'all' })] })).toEqual(['nodes.0.join']);
    expect(issues({ ...base, maxIterations: 0 })).toEqual(['maxIterations']);
    const both = { llm: 'x', equals: { path: 'ok', value: true } };
    expect(issues({ ...base, edges: [{ from: 'a', to: 'a', when: both }] })).toEqual(['edges.0.when']);
  });
});

describe('each rule', () => {
  test('every rule is shown below', () => {
    const shown = new Set(Object.values(CASES).flatMap((c) => checkGraphRules(c.graph, c.options).map((p) => p.rule)));
    expect([...shown].sort()).toEqual([...GRAPH_RULES].sort());
  });

  const CASES: Record<string, { graph: Graph; options?: { ids: 'node' | 'step' }; expected: string[]; says: string }> =
    {
      duplicate_node: {
        graph: raw({ nodes: [node('a'), node('a')] }),
        expected: ['duplicate_node graph.nodes[1].id'],
        says: 'node "a": duplicate id',
      },
      bad_output_schema: {
        graph: raw({ nodes: [node('a', { output: { type: 'object', properties: { n: { type: 'nonsense' } } } })] }),
        expected: ['bad_output_schema graph.nodes[0].output'],
        says: 'node "a": output is not a usable JSON Schema: Unsupported type: nonsense',
      },
      output_schema_regex: {
        graph: raw({ nodes: [node('a', { output: REGEX_OUTPUT })] }),
        expected: [
          'output_schema_regex graph.nodes[0].output.properties.pattern.pattern',
          'output_schema_regex graph.nodes[0].output.properties.m.patternProperties',
        ],
        says: 'node "a": output schemas may not use regular expressions (pattern, patternProperties, format "regex")',
      },
      bad_node_id: {
        graph: raw({ nodes: [node('a'), node('b-2')], edges: [{ from: 'a', to: 'b-2' }], end: ['b-2'] }),
        expected: ['bad_node_id graph.nodes[1].id'],
        says: 'node "b-2": id must not end in "-<digits>"',
      },
      unknown_node: {
        graph: raw({
          nodes: [node('a'), node('b')],
          edges: [
            { from: 'a', to: 'b' },
            { from: 'ghost', to: 'b' },
            { from: 'a', to: 'nowhere' },
          ],
          entry: ['a', 'nope'],
          end: ['b', 'gone'],
        }),
        expected: [
          'unknown_node graph.edges[1].from',
          'unknown_node graph.edges[2].to',
          'unknown_node graph.entry[1]',
          'unknown_node graph.end[1]',
        ],
        says: 'names unknown node "ghost"',
      },
      duplicate_edge: {
        graph: graph({
          nodes: [node('a'), node('b')],
          edges: [
            { from: 'a', to: 'b' },
            { from: 'a', to: 'b' },
          ],
          end: ['b'],
        }),
        expected: ['duplicate_edge graph.edges[1]'],
        says: 'node "a": a second plain edge to "b"',
      },
      ambiguous_plain_exit: {
        graph: graph({
          nodes: [node('a'), node('b'), node('c'), node('d')],
          edges: [
            { from: 'a', to: 'b', when: { llm: 'x' } },
            { from: 'a', to: 'c' },
            { from: 'a', to: 'd' },
          ],
          end: ['b', 'c', 'd'],
        }),
        expected: ['ambiguous_plain_exit graph.edges[2]'],
        says: 'node "a": has conditional edges, so it may have one plain edge',
      },
      equals_without_output: {
        graph: graph({
          nodes: [node('a'), node('b')],
          edges: [{ from: 'a', to: 'b', when: { equals: { path: 'ok', value: true } } }],
          end: ['a', 'b'],
        }),
        expected: ['equals_without_output graph.edges[0].when'],
        says: 'node "a": edge to "b" tests its output, but the node declares no "output"',
      },
      unreachable_node: {
        graph: graph({ nodes: [node('a'), node('b'), node('c')], edges: [{ from: 'b', to: 'c' }] }),
        expected: ['unreachable_node graph.nodes[1]', 'unreachable_node graph.nodes[2]'],
        says: 'node "b": not reachable from any entry',
      },
      no_end_reachable: {
        graph: graph({ nodes: [node('a'), node('b')], edges: [{ from: 'a', to: 'b' }], end: ['a'] }),
        expected: ['end_always_leaves graph.end[0]', 'no_end_reachable graph.nodes[1]'],
        says: 'node "b": no end node can be reached from it',
      },
      end_always_leaves: {
        graph: graph({
          nodes: [node('a'), node('b')],
          edges: [
            { from: 'a', to: 'b', when: { llm: 'x' } },
            { from: 'a', to: 'a' },
          ],
          end: ['a', 'b'],
        }),
        expected: ['end_always_leaves graph.end[0]'],
        says: 'node "a": an end node, but every visit leaves it by an edge',
      },
      join_never_fires: {
        graph: graph({
          ...reviewLoopGraph,
          nodes: graphSchema.parse(reviewLoopGraph).nodes.map((n) => (n.id === 'review' ? { ...n, join: 'all' } : n)),
        }),
        expected: ['join_never_fires graph.edges[2]'],
        says: 'node "review": join "all" waits for the edge from "revise", which can only run after "review" itself',
      },
    };

  test.each(Object.entries(CASES))('%s', (_rule, { graph: g, options, expected, says }) => {
    const problems = checkGraphRules(g, options);
    expect(rules(problems)).toEqual(expected);
    expect(problems.map((p) => p.message).join('\n')).toContain(says);
  });
});

describe('where a rule does not apply', () => {
  test('plan ids ending in -<digits> pass with the step id rules', () => {
    const g = raw({ nodes: [node('step-1'), node('step-2')], edges: [{ from: 'step-1', to: 'step-2' }] });
    const planned = { ...g, entry: ['step-1'], end: ['step-2'] };
    expect(rules(checkGraphRules(planned, { ids: 'step' }))).toEqual([]);
    expect(rules(checkGraphRules(planned))).toEqual(['bad_node_id graph.nodes[0].id', 'bad_node_id graph.nodes[1].id']);
  });

  test('a branch may end without an end node when other branches run beside it', () => {
    const g = graph({
      nodes: [node('a'), node('log'), node('b')],
      edges: [
        { from: 'a', to: 'log' },
        { from: 'a', to: 'b' },
      ],
      end: ['b'],
    });
    expect(checkGraphRules(g)).toEqual([]);
  });

  test('no end reachable from any entry is reported once, even with parallel branches', () => {
    const g = graph({
      nodes: [node('a'), node('b'), node('z')],
      edges: [{ from: 'a', to: 'b' }],
      entry: ['a', 'b'],
      end: ['z'],
    });
    expect(rules(checkGraphRules(g))).toEqual(['unreachable_node graph.nodes[2]', 'no_end_reachable graph.end']);
  });

  test('join "all" over a fan-out, a self loop on an entry, and join on one edge are fine', () => {
    const fanIn = graph({
      nodes: [node('a'), node('b'), node('c'), node('d', { join: 'all' })],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'a', to: 'c' },
        { from: 'b', to: 'd' },
        { from: 'c', to: 'd' },
      ],
      end: ['d'],
    });
    expect(checkGraphRules(fanIn)).toEqual([]);
    const entryLoop = graph({
      nodes: [node('a', { join: 'all', output: { type: 'object' } })],
      edges: [{ from: 'a', to: 'a', when: { equals: { path: 'again', value: true } } }],
    });
    expect(checkGraphRules(entryLoop)).toEqual([]);
  });

  test('a join "all" waiting for an unreachable node never fires either', () => {
    const g = graph({
      nodes: [node('a'), node('ghost'), node('b', { join: 'all' })],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'ghost', to: 'b' },
      ],
      end: ['b'],
    });
    const problems = checkGraphRules(g);
    expect(rules(problems)).toEqual(['unreachable_node graph.nodes[1]', 'join_never_fires graph.edges[1]']);
    expect(problems[1]?.message).toBe('node "b": join "all" waits for the edge from "ghost", which never runs');
  });

  test('a self loop on a non-entry join "all" node never fires', () => {
    const g = graph({
      nodes: [node('a'), node('b', { join: 'all', output: { type: 'object' } })],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'b', when: { equals: { path: 'again', value: true } } },
      ],
      end: ['b'],
    });
    expect(rules(checkGraphRules(g))).toEqual(['join_never_fires graph.edges[1]']);
  });
});
