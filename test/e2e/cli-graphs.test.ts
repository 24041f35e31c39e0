/**
 * The CLI's agent graphs through the real bin script (docs/graphs.md): `cairn graphs` lists the
 * `CAIRN_GRAPHS` module's graphs, a broken module stops it naming the module, the graph and the
 * rule code; `cairn run --graph <name>` starts an agent whose own start input holds the whole
 * registered graph and no planning mode (read back from history; no worker runs it here), and
 * `--graph <file.json>` one with the file's graph. An unknown name or `--ask` beside `--graph` is
 * a usage error (exit 2) and starts nothing.
 */
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { loadGraphRegistry } from '../../client/graphs/load-graphs';
import type { GraphRegistry } from '../../client/graphs/graph-registry';
import { graphSchema } from '../../workflows/model/graph/graph-schema';
import { agentStartedBy, runCairn, spawnCairn } from '../harness/cairn-cli';
import { startedInput } from '../harness/started-input';
import { closeClient, connectClient, uniqueId } from '../harness/test-env';
import fileGraph from '../fixtures/graphs/review-loop.json';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = 'examples/graphs/index.ts';

let client: Client;
let registry: GraphRegistry;
const started: string[] = [];

beforeAll(async () => {
  client = await connectClient();
  registry = await loadGraphRegistry(EXAMPLES, ROOT);
});

afterAll(async () => {
  // No worker ever takes these agents: end them so the namespace holds no open workflow.
  for (const id of started) await client.workflow.getHandle(id).terminate('cli graph test over');
  await closeClient(client);
});

test('cairn graphs: name, node count and description of each registered graph', async () => {
  const { code, stdout, stderr } = await runCairn(['graphs'], { CAIRN_GRAPHS: EXAMPLES });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(registry.list().length);
  registry.list().forEach((graph, i) => {
    expect(lines[i]).toContain(graph.name);
    expect(lines[i]).toContain(`${graph.graph.nodes.length} nodes`);
    expect(lines[i]).toContain(graph.description ?? '');
  });
  const json = await runCairn(['graphs', '--json'], { CAIRN_GRAPHS: EXAMPLES });
  expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(registry.list())));
});

test('cairn graphs: a broken module exits non-zero naming the module, the graph and the rule code', async () => {
  const broken = 'test/fixtures/graphs/broken-graph.ts';
  const { code, stdout, stderr } = await runCairn(['graphs'], { CAIRN_GRAPHS: broken });
  expect(code).not.toBe(0);
  expect(stdout).toBe('');
  expect(stderr).toContain(broken);
  expect(stderr).toContain('"broken-loop"');
  expect(stderr).toContain('unknown_node');
});

test('cairn run --graph <name>: the agent starts with the registered graph and no planning mode', async () => {
  const taskQueue = uniqueId('cli-graphs');
  const run = spawnCairn(
    ['run', 'Write a short poem', '--graph', 'review-loop', '--json'],
    {
      CAIRN_GRAPHS: EXAMPLES,
      CAIRN_TASK_QUEUE: taskQueue,
    },
    { ownGroup: true },
  );
  run.input();
  const input = (await startedInput(client, await agentStartedBy(run, started))) as Record<string, unknown>;
  expect(input.graph).toEqual(registry.get('review-loop')?.graph);
  expect(input.graphName).toBe('review-loop');
  expect(input.mode).toEqual({ confirmPlan: false });
});

test('cairn run --graph <file.json>: the agent starts with the checked graph of the file', async () => {
  const run = spawnCairn(
    ['run', 'Write a short poem', '--graph', 'test/fixtures/graphs/review-loop.json', '--json'],
    {
      CAIRN_TASK_QUEUE: uniqueId('cli-graphs'),
    },
    { ownGroup: true },
  );
  run.input();
  const input = (await startedInput(client, await agentStartedBy(run, started))) as Record<string, unknown>;
  expect(input.graph).toEqual(graphSchema.parse(fileGraph));
  expect(input.graphName).toBeUndefined();
});

test('cairn run --graph: an unknown name, or --ask beside it, is a usage error (exit 2)', async () => {
  const env = { CAIRN_GRAPHS: EXAMPLES, CAIRN_TASK_QUEUE: uniqueId('cli-graphs') };
  const unknown = await runCairn(['run', 'Anything', '--graph', 'no-such-graph'], env);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('no-such-graph');
  expect(unknown.stdout + unknown.stderr).not.toMatch(/agent \S+ started/);
  const ask = await runCairn(['run', 'Anything', '--graph', 'review-loop', '--ask'], env);
  expect(ask.code).toBe(2);
  expect(ask.stderr).toContain('--ask cannot be used with --graph');
});
