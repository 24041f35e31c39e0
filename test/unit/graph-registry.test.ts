/**
 * Registered agent graphs (docs/graphs.md#registering-graphs): `defineGraph` checks a graph where
 * it is written, the registry loads the `CAIRN_GRAPHS` module's default array — every graph checked,
 * a broken one or a name used twice refused naming the module, the graph, each rule code and
 * path — and resolution fills an input's `graphName` with the registered graph.
 */
import { join } from 'node:path';
import { ClientError } from '../../client/client-error';
import { defineGraph, GraphDefinitionError } from '../../client/graphs/define-graph';
import { EMPTY_GRAPH_REGISTRY } from '../../client/graphs/graph-registry';
import { GraphModuleError, loadGraphRegistry } from '../../client/graphs/load-graphs';
import { withRegisteredGraph } from '../../client/graphs/resolve-graph';
import { loadConfig } from '../../config/config';
import { serveApi } from '../../client/http/serve-api';
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { routerGraph } from '../../examples/graphs/router';
import { parseAgentInput } from '../../workflows/model/agent/agent-input';
import { checkGraphRules } from '../../workflows/model/graph/graph-rules';
import { DEFAULT_MAX_ITERATIONS, graphSchema, type GraphInput } from '../../workflows/model/graph/graph-schema';

const ROOT = join(__dirname, '..', '..');
const VALID = 'test/fixtures/graphs/valid-graphs.ts';
const BROKEN = 'test/fixtures/graphs/broken-graph.ts';

/** A graph that breaks two rules: an edge to a node that does not exist, and a node no entry reaches. */
const brokenGraph: GraphInput = {
  name: 'broken',
  nodes: [
    { id: 'start', systemPrompt: 'Start.' },
    { id: 'orphan', systemPrompt: 'Never reached.' },
  ],
  edges: [{ from: 'start', to: 'missing' }],
  entry: ['start'],
  end: ['start'],
};

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a rejection');
  return outcome;
}

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('defineGraph', () => {
  test('returns the graph itself when it keeps every rule', () => {
    expect(defineGraph(reviewLoopGraph)).toBe(reviewLoopGraph);
    expect(defineGraph(routerGraph)).toBe(routerGraph);
  });

  test('a broken graph throws GraphDefinitionError with every problem, its rule code and path', () => {
    const expected = checkGraphRules(graphSchema.parse(brokenGraph));
    expect(expected.map((p) => p.rule)).toEqual(expect.arrayContaining(['unknown_node', 'unreachable_node']));
    const err = thrownBy(() => defineGraph(brokenGraph));
    expect(err).toBeInstanceOf(GraphDefinitionError);
    const definition = err as GraphDefinitionError;
    expect(definition.graph).toBe('"broken"');
    expect(definition.issues.map((i) => [i.code, i.path])).toEqual(expected.map((p) => [p.rule, p.path]));
    for (const problem of expected)
      expect(definition.message).toContain(`${problem.path}: ${problem.message} (${problem.rule})`);
  });

  test('a broken shape is coded `shape`, a node id breaking the id rules `bad_node_id`', () => {
    const err = thrownBy(() =>
      defineGraph({ name: 'ids', nodes: [{ id: 'visit-2', systemPrompt: '' }], entry: ['visit-2'], end: ['visit-2'] }),
    ) as GraphDefinitionError;
    expect(err.issues.map((i) => [i.code, i.path])).toEqual([
      ['bad_node_id', 'graph.nodes[0].id'],
      ['shape', 'graph.nodes[0].systemPrompt'],
    ]);
  });
});

describe('output schemas run no regular expression', () => {
  /** One node whose output schema hides a backtracking pattern two levels down. */
  const withPattern: GraphInput = {
    name: 'regex',
    nodes: [
      {
        id: 'extract',
        systemPrompt: 'Extract.',
        output: {
          type: 'object',
          properties: { items: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } } },
        },
      },
    ],
    entry: ['extract'],
    end: ['extract'],
  };

  test('defineGraph refuses a node output schema with `pattern`, naming its path', () => {
    const err = thrownBy(() => defineGraph(withPattern)) as GraphDefinitionError;
    expect(err).toBeInstanceOf(GraphDefinitionError);
    expect(err.issues.map((i) => [i.code, i.path])).toEqual([
      ['output_schema_regex', 'graph.nodes[0].output.properties.items.items.pattern'],
    ]);
  });

  test('an inline graph in a start input (as the HTTP start sends it) is refused the same way', () => {
    const parsed = parseAgentInput({ task: 't', graph: withPattern });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.join('\n')).toContain('graph.nodes[0].output.properties.items.items.pattern');
    expect(parsed.errors.join('\n')).toContain('(output_schema_regex)');
  });
});

describe('loadGraphRegistry', () => {
  test('no module configured (CAIRN_GRAPHS unset): no graphs', async () => {
    expect(loadConfig({}).graphs.module).toBeUndefined();
    const registry = await loadGraphRegistry(undefined, ROOT);
    expect(registry.list()).toEqual([]);
  });

  test('CAIRN_GRAPHS names the module the registry loads', async () => {
    const config = loadConfig({ CAIRN_GRAPHS: VALID });
    expect(config.graphs.module).toBe(VALID);
    const registry = await loadGraphRegistry(config.graphs.module, ROOT);
    expect(registry.list().map((g) => g.name)).toEqual(['one-step', 'check-fix']);
  });

  test("each graph is registered checked, with its defaults filled in and the module's description", async () => {
    const registry = await loadGraphRegistry(VALID, ROOT);
    const oneStep = registry.get('one-step');
    expect(oneStep?.description).toBe('Answer in one step.');
    expect(oneStep?.graph.edges).toEqual([]);
    expect(oneStep?.graph.maxIterations).toBe(DEFAULT_MAX_ITERATIONS);
    expect(registry.get('check-fix')?.graph.maxIterations).toBe(4);
    expect(registry.get('check-fix')?.description).toBeUndefined();
    expect(registry.get('nope')).toBeUndefined();
  });

  test('the examples module registers both example graphs, as written', async () => {
    const registry = await loadGraphRegistry('examples/graphs/index.ts', ROOT);
    expect(registry.list().map((g) => g.name)).toEqual([reviewLoopGraph.name, routerGraph.name]);
    expect(registry.get('review-loop')?.graph).toEqual(graphSchema.parse(reviewLoopGraph));
    expect(registry.get('router')?.graph).toEqual(graphSchema.parse(routerGraph));
  });

  test('a broken graph stops the load: module, graph, every rule code and path named', async () => {
    const err = await rejectionOf(loadGraphRegistry(BROKEN, ROOT));
    expect(err).toBeInstanceOf(GraphModuleError);
    expect(err.message).toContain(`graph module "${BROKEN}" (CAIRN_GRAPHS)`);
    expect(err.message).toContain('graph "broken-loop" (default[1])');
    expect(err.message).toContain('graph.edges[0].to');
    expect(err.message).toContain('(unknown_node)');
    expect(err.message).toContain('graph.nodes[1]: node "orphan": not reachable from any entry (unreachable_node)');
    // The valid graph before it does not make it into any registry.
    expect(err.message).not.toContain('"fine"');
  });

  test('one name registered twice is refused', async () => {
    const path = 'test/fixtures/graphs/duplicate-graphs.ts';
    const err = await rejectionOf(loadGraphRegistry(path, ROOT));
    expect(err).toBeInstanceOf(GraphModuleError);
    expect(err.message).toBe(`graph module "${path}" (CAIRN_GRAPHS): graph name "twice" is registered twice`);
  });

  test('a module without a default array, or missing, is refused saying so', async () => {
    const named = 'examples/graphs/router.ts';
    expect((await rejectionOf(loadGraphRegistry(named, ROOT))).message).toContain(
      `graph module "${named}" (CAIRN_GRAPHS) must export a default array of graphs`,
    );
    const missing = 'test/fixtures/graphs/no-such-module.ts';
    expect((await rejectionOf(loadGraphRegistry(missing, ROOT))).message).toContain(
      `graph module "${missing}" (CAIRN_GRAPHS) not found`,
    );
  });

  test('a module whose defineGraph throws at import fails to load, with the problems named', async () => {
    const err = await rejectionOf(loadGraphRegistry('test/fixtures/graphs/define-throws.ts', ROOT));
    expect(err.message).toContain('failed to load');
    expect(err.message).toContain('graph "thrown" is invalid');
    expect(err.message).toContain('(no_end_reachable)');
  });
});

test('the HTTP server refuses to start with a broken graph module, before it connects or listens', async () => {
  const config = loadConfig({ CAIRN_GRAPHS: BROKEN, TEMPORAL_ADDRESS: '127.0.0.1:1' }, ROOT);
  const err = await rejectionOf(serveApi(config, { info: () => {}, error: () => {} }));
  expect(err).toBeInstanceOf(GraphModuleError);
  expect(err.message).toContain('(unknown_node)');
});

describe('withRegisteredGraph', () => {
  test('a registered name puts the checked graph in `graph` and keeps the name', async () => {
    const registry = await loadGraphRegistry('examples/graphs/index.ts', ROOT);
    const input = withRegisteredGraph({ task: 'Write a haiku', graphName: 'review-loop' }, registry);
    expect(input).toEqual({
      task: 'Write a haiku',
      graphName: 'review-loop',
      graph: registry.get('review-loop')?.graph,
    });
    // What the workflow will parse: the input keeps every rule.
    expect(parseAgentInput(input).ok).toBe(true);
  });

  test('an unknown name is INVALID_INPUT on field graphName', () => {
    const err = thrownBy(() => withRegisteredGraph({ task: 't', graphName: 'nope' }, EMPTY_GRAPH_REGISTRY));
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ code: 'INVALID_INPUT', field: 'graphName' });
  });

  test('an input carrying its own graph keeps it, whatever the name says', async () => {
    const registry = await loadGraphRegistry('examples/graphs/index.ts', ROOT);
    const given = { task: 't', graphName: 'review-loop', graph: routerGraph };
    expect(withRegisteredGraph(given, registry)).toBe(given);
    expect(withRegisteredGraph({ task: 't', graph: routerGraph }, EMPTY_GRAPH_REGISTRY).graph).toBe(routerGraph);
  });

  test('an input without a graph name is left alone', () => {
    const input = { task: 't' };
    expect(withRegisteredGraph(input, EMPTY_GRAPH_REGISTRY)).toBe(input);
  });
});
