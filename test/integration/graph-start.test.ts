/**
 * Starting a graph agent by name (docs/graphs.md#registering-graphs) through the client library
 * and `POST /api/agents`, against the real dev server with no worker: the workflow's own start
 * input — read back from its history — holds the whole registered graph beside its name, so a
 * later edit of the module never reaches it; an unknown name is INVALID_INPUT on `graphName` and
 * starts nothing; a graph carried in the input is kept. Running the graph is another test's.
 */
import { join } from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { AgentClient } from '../../client/agents/agent-client';
import { ClientError } from '../../client/client-error';
import { loadGraphRegistry } from '../../client/graphs/load-graphs';
import type { GraphRegistry } from '../../client/graphs/graph-registry';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../../client/unanswered-query';
import { routerGraph } from '../../examples/graphs/router';
import { agentTestbed } from '../harness/agent-testbed';
import { postJson, appOver } from '../harness/http-app';
import { startedInput } from '../harness/started-input';
import { uniqueId } from '../harness/test-env';

const bed = agentTestbed();
const ROOT = join(__dirname, '..', '..');
const started: string[] = [];
let registry: GraphRegistry;

beforeAll(async () => {
  registry = await loadGraphRegistry('examples/graphs/index.ts', ROOT);
});

afterEach(async () => {
  // No worker ever takes these agents: end them so the namespace holds no open workflow.
  for (const id of started.splice(0)) await bed.client.workflow.getHandle(id).terminate('graph start test over');
});

function agents(): AgentClient {
  return new AgentClient(bed.client, bed.config.taskQueue, true, DEFAULT_QUERY_TIMEOUT_MS, registry);
}

async function exists(id: string): Promise<boolean> {
  try {
    await bed.client.workflow.getHandle(id).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

test('client library: a graphName starts the agent with the registered graph in its input', async () => {
  const id = await agents().start({ task: 'Write a haiku about rivers', graphName: 'review-loop' });
  started.push(id);
  const input = await startedInput(bed.client, id);
  expect(input).toMatchObject({ task: 'Write a haiku about rivers', graphName: 'review-loop' });
  expect((input as { graph: unknown }).graph).toEqual(registry.get('review-loop')?.graph);
});

test('client library: an unknown graphName is INVALID_INPUT on graphName, and nothing starts', async () => {
  const workflowId = uniqueId('agent-unknown-graph');
  const err = await agents()
    .start({ task: 'Anything', graphName: 'no-such-graph' }, { workflowId })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ClientError);
  expect(err).toMatchObject({ code: 'INVALID_INPUT', field: 'graphName' });
  expect(await exists(workflowId)).toBe(false);
});

test('POST /api/agents: a graphName resolves on the server; the input goes without planning modes', async () => {
  const res = await postJson(appOver(agents()), '/api/agents', { task: 'Route this message', graphName: 'router' });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  started.push(id);
  const input = (await startedInput(bed.client, id)) as Record<string, unknown>;
  expect(input.graph).toEqual(registry.get('router')?.graph);
  expect(input.graphName).toBe('router');
  // A graph agent refuses `mode.plan` and `mode.ask`: the server sends none it was not sent.
  expect(input.mode).toBeUndefined();
});

test('POST /api/agents: a mode sent with a graph goes as sent (confirmPlan for the graph check)', async () => {
  const body = { task: 'Route this message', graphName: 'router', mode: { confirmPlan: true } };
  const res = await postJson(appOver(agents()), '/api/agents', body);
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  started.push(id);
  expect(((await startedInput(bed.client, id)) as Record<string, unknown>).mode).toEqual({ confirmPlan: true });
});

test('POST /api/agents: an unknown graphName is 400 INVALID_INPUT with field graphName', async () => {
  const res = await postJson(appOver(agents()), '/api/agents', { task: 'Anything', graphName: 'no-such-graph' });
  expect(res.status).toBe(400);
  const { error } = (await res.json()) as { error: { code: string; field?: string } };
  expect(error).toMatchObject({ code: 'INVALID_INPUT', field: 'graphName' });
});

test('POST /api/agents: an input carrying both graph and graphName keeps the graph it carries', async () => {
  const body = { task: 'Route this message', graphName: 'review-loop', graph: routerGraph };
  const res = await postJson(appOver(agents()), '/api/agents', body);
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  started.push(id);
  const input = (await startedInput(bed.client, id)) as { graph: { name: string }; graphName: string };
  expect(input.graph.name).toBe(routerGraph.name);
  expect(input.graphName).toBe('review-loop');
});
