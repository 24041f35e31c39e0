/**
 * The CLI's graph commands (client/graphs/cli/graph-option.ts, graphs-command.ts): `run --graph` reads a
 * `.json` file and checks it (a broken one is a usage error naming each rule code) or passes a
 * name on to resolve at start, sends no planning mode with a graph and refuses `--no-plan` /
 * `--ask` beside it; `graphs` prints name, node count and description.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../client/cli/cli-exit';
import { graphChoice, isGraphFile, runMode } from '../../client/graphs/cli/graph-option';
import { formatGraphs } from '../../client/graphs/cli/graphs-command';
import { loadGraphRegistry } from '../../client/graphs/load-graphs';
import { parseAgentInput } from '../../workflows/model/agent/agent-input';
import { graphSchema } from '../../workflows/model/graph/graph-schema';
import fileGraph from '../fixtures/graphs/review-loop.json';

const ROOT = join(__dirname, '..', '..');

async function usageErrorOf(promise: Promise<unknown>): Promise<UsageError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof UsageError)) throw new Error(`expected a UsageError, got ${String(err)}`);
  return err;
}

describe('run --graph', () => {
  test('a .json path is read and checked: the graph, defaults filled in', async () => {
    expect(isGraphFile('test/fixtures/graphs/review-loop.json')).toBe(true);
    const choice = await graphChoice('test/fixtures/graphs/review-loop.json', ROOT);
    expect(choice).toEqual({ graph: graphSchema.parse(fileGraph) });
  });

  test('anything else is a registered name, resolved at start', async () => {
    expect(isGraphFile('review-loop')).toBe(false);
    expect(await graphChoice('review-loop', ROOT)).toEqual({ graphName: 'review-loop' });
  });

  test('a file breaking a rule is a usage error naming the rule code and path', async () => {
    const err = await usageErrorOf(graphChoice('test/fixtures/graphs/unknown-node.json', ROOT));
    expect(err.message).toContain('--graph test/fixtures/graphs/unknown-node.json: the graph is invalid');
    expect(err.message).toContain('graph.edges[0].to');
    expect(err.message).toContain('(unknown_node)');
    const id = await usageErrorOf(graphChoice('test/fixtures/graphs/bad-id.json', ROOT));
    expect(id.message).toContain('graph.nodes[0].id');
    expect(id.message).toContain('(bad_node_id)');
  });

  test('a missing file, one that is not JSON, or JSON that is no graph is a usage error saying so', async () => {
    expect((await usageErrorOf(graphChoice('no/such/graph.json', ROOT))).message).toContain('ENOENT');
    const dir = mkdtempSync(join(tmpdir(), 'graph-option-'));
    writeFileSync(join(dir, 'cut.json'), '{ "name": "cut", ');
    expect((await usageErrorOf(graphChoice('cut.json', dir))).message).toContain('--graph cut.json: not valid JSON');
    const notGraph = await usageErrorOf(graphChoice('package.json', ROOT));
    expect(notGraph.message).toContain('(shape)');
  });

  test('with a graph only confirmPlan is sent: the input passes the graph agent rules', async () => {
    const choice = await graphChoice('test/fixtures/graphs/review-loop.json', ROOT);
    const defaults = { plan: true };
    const mode = runMode(defaults, true);
    expect(mode).toEqual({ confirmPlan: false });
    expect(parseAgentInput({ task: 't', mode, ...choice }).ok).toBe(true);
    // What a run without --graph sends would be refused with a graph: mode.plan and mode.ask.
    const planned = parseAgentInput({ task: 't', mode: runMode(defaults, false), ...choice });
    expect(planned.ok).toBe(false);
    expect(runMode({ plan: true, confirmPlan: true }, true)).toEqual({ confirmPlan: true });
  });

  test('--no-plan or --ask beside --graph is a usage error', () => {
    expect(() => runMode({ plan: false }, true)).toThrow(UsageError);
    expect(() => runMode({ plan: true, ask: true }, true)).toThrow('--ask cannot be used with --graph');
    expect(runMode({ plan: false, ask: true }, false)).toEqual({ plan: false, ask: true, confirmPlan: false });
  });
});

describe('cairn graphs', () => {
  test('one line per graph: name, node count, description', async () => {
    const registry = await loadGraphRegistry('test/fixtures/graphs/valid-graphs.ts', ROOT);
    const lines = formatGraphs(registry.list()).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^one-step\s+1 node\s+Answer in one step\.$/);
    expect(lines[1]).toMatch(/^check-fix\s+2 nodes$/);
  });

  test('none registered: says how to register some', () => {
    expect(formatGraphs([])).toContain('CAIRN_GRAPHS');
  });
});
