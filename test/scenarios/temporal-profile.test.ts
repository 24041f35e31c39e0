/**
 * The Temporal connection configured the way the `temporal` CLI is, for real: a worker and a
 * client that open their own connections from a temporal.toml profile (no address variable) run
 * an agent end to end on the run's dev server; a standard variable overrides the profile's
 * address for the actual connection too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { connectTemporal } from '../../temporal/connection';
import { AgentClient } from '../../client/agents/agent-client';
import { loadConfig } from '../../config/config';
import { connectionOptions } from '../../temporal/connection-options';
import { createWorker } from '../../worker/create-worker';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { finish, plan, planReply, step } from '../harness/plans';
import { runInfo } from '../harness/run-info';
import { uniqueId } from '../harness/test-env';
import { freePort } from '../../testkit/free-port';
import { waitUntil } from '../../testkit/wait-until';

const dir = mkdtempSync(join(tmpdir(), 'cairn-profile-'));
const profileFile = join(dir, 'temporal.toml');
writeFileSync(
  profileFile,
  [
    '[profile.cairn]',
    `address = "${runInfo().temporalAddress}"`,
    'namespace = "default"',
    '[profile.cairn.grpc_meta]',
    'x-cairn-test = "profile"',
    '',
  ].join('\n'),
);

let llm: ScriptedLlm;
beforeEach(async () => {
  llm = await ScriptedLlm.start();
});
afterEach(async () => {
  await llm.close();
});

test('a worker and a client connect through a temporal.toml profile and run an agent', async () => {
  const config = loadConfig({
    TEMPORAL_CONFIG_FILE: profileFile,
    TEMPORAL_PROFILE: 'cairn',
    CAIRN_TASK_QUEUE: uniqueId('profile-queue'),
    OPENAI_BASE_URL: llm.baseUrl,
    CAIRN_MODEL: 'scripted-model',
    CAIRN_WORKSPACE: join(dir, 'workspace'),
  });
  expect(config.temporal).toMatchObject({ address: runInfo().temporalAddress, addressConfigured: true });
  llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [finish('from the profile')],
      summary: [reply.text('connected by profile')],
    }),
  );
  // No connection passed: both open their own from the configuration.
  const cairn = await createWorker({
    config,
    workflows: { workflowBundle: { codePath: runInfo().workflowBundlePath } },
  });
  const client = await AgentClient.connect(config);
  try {
    await cairn.runUntil(async () => {
      const id = await client.start({ task: 'Connect by profile' });
      const state = await waitUntil('the agent completes', async () => {
        const s = await client.state(id);
        return s.phase === 'completed' ? s : undefined;
      });
      expect(state.result).toBe('connected by profile');
    });
  } finally {
    await client.close();
    await cairn.close();
  }
});

test("CAIRN_WORKER_CACHED_WORKFLOWS sizes the workflow worker's cache (without it the SDK sizes it from the heap), CAIRN_WORKER_WORKFLOW_THREADS its workflow threads; the LLM worker polls with a poller per call slot", async () => {
  const env = {
    TEMPORAL_CONFIG_FILE: profileFile,
    TEMPORAL_PROFILE: 'cairn',
    CAIRN_TASK_QUEUE: uniqueId('cache-queue'),
    OPENAI_BASE_URL: llm.baseUrl,
    CAIRN_WORKSPACE: join(dir, 'workspace'),
  };
  const workflows = { workflowBundle: { codePath: runInfo().workflowBundlePath } };
  const optionsOf = async (extra: Record<string, string>) => {
    const cairn = await createWorker({ config: loadConfig({ ...env, ...extra }), workflows });
    try {
      // Run briefly so the workers can shut down and release their connection.
      return await cairn.runUntil(() =>
        Promise.resolve({ workflows: cairn.worker.options, llm: cairn.llmWorker.options }),
      );
    } finally {
      await cairn.close();
    }
  };
  const set = await optionsOf({
    CAIRN_WORKER_CACHED_WORKFLOWS: '7',
    CAIRN_WORKER_WORKFLOW_THREADS: '2',
    CAIRN_LLM_CONCURRENCY: '30',
  });
  expect(set.workflows.maxCachedWorkflows).toBe(7);
  expect(set.workflows.workflowThreadPoolSize).toBe(2);
  expect(set.llm.activityTaskPollerBehavior).toEqual({ type: 'simple-maximum', maximum: 30 });
  const unset = await optionsOf({});
  expect(unset.workflows.maxCachedWorkflows).not.toBe(7);
  expect(unset.workflows.maxCachedWorkflows).toBeGreaterThan(0);
  expect(unset.workflows.workflowThreadPoolSize).toBe(1);
  // The default 20 call slots: 20 pollers (the SDK's default is 10).
  expect(unset.llm.activityTaskPollerBehavior).toEqual({ type: 'simple-maximum', maximum: 20 });
});

test("TEMPORAL_ADDRESS overrides the profile's address for the real connection", async () => {
  const closedPort = await freePort();
  const config = loadConfig({
    TEMPORAL_CONFIG_FILE: profileFile,
    TEMPORAL_PROFILE: 'cairn',
    TEMPORAL_ADDRESS: `127.0.0.1:${closedPort}`,
  });
  expect(config.temporal.address).toBe(`127.0.0.1:${closedPort}`);
  await expect(connectTemporal({ ...connectionOptions(config.temporal), connectTimeout: '2s' })).rejects.toThrow();
  // Without the override the same profile connects.
  const reachable = await connectTemporal(
    connectionOptions(loadConfig({ TEMPORAL_CONFIG_FILE: profileFile, TEMPORAL_PROFILE: 'cairn' }).temporal),
  );
  await reachable.close();
});
