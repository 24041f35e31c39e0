/**
 * Per-test helpers over the run's shared dev server: a client, a unique task queue and
 * workflow ids, a configuration pointing at the scripted LLM, and a worker that runs only for
 * the duration of a test body.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { connectTemporal } from '../../temporal/connection';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { ToolDefinition } from '../../activities/tools/define-tool';
import { loadConfig, type CairnConfig } from '../../config/config';
import type { WorkerVersion } from '../../config/versioning-config';
import { createWorker } from '../../worker/create-worker';
import type { ScriptedLlm } from '../fake-llm/scripted-llm';
import { runInfo } from './run-info';
import { cairnDataConverter } from '../../temporal/payloads/data-converter';

/** A short unique suffix for task queues and workflow ids. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Configuration for a test: the run's dev server, a fresh task queue, the fake's endpoint. */
export function testConfig(llm: ScriptedLlm, env: Record<string, string> = {}): CairnConfig {
  return loadConfig({
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: uniqueId('test-queue'),
    OPENAI_BASE_URL: llm.baseUrl,
    CAIRN_MODEL: 'scripted-model',
    CAIRN_LLM_TIMEOUT_MS: '10000',
    ...env,
  });
}

/**
 * A client on the run's dev server (or `address`); close its connection with `closeClient`. It
 * reads compressed payloads, as workers write them by default; pass a test's configuration to
 * read the payloads of a worker with encryption keys.
 */
export async function connectClient(address = runInfo().temporalAddress, config?: CairnConfig): Promise<Client> {
  const connection = await connectTemporal({ address });
  return new Client({ connection, dataConverter: cairnDataConverter(config?.payloads ?? { compression: true }) });
}

/** Closes a client's connection. */
export async function closeClient(client: Client): Promise<void> {
  await client.connection.close();
}

/**
 * Runs `body` while a worker with the run's workflow bundle polls `config.taskQueue`, then
 * shuts the worker down and closes its connection. `identity` tells workers of one test apart
 * in history. Workers are unversioned unless a test passes `version` (a Worker Deployment
 * version to join). `workflowBundlePath` runs another bundle than the run's (a test-only variant
 * of the workflow code).
 */
export async function withWorker<T>(
  config: CairnConfig,
  body: (worker: Worker) => Promise<T>,
  tools?: ToolDefinition[],
  {
    identity,
    version,
    workflowBundlePath = runInfo().workflowBundlePath,
  }: { identity?: string; version?: WorkerVersion; workflowBundlePath?: string } = {},
): Promise<T> {
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  try {
    const cairn = await createWorker({
      config,
      connection,
      workflows: { workflowBundle: { codePath: workflowBundlePath } },
      ...(tools ? { tools } : {}),
      ...(identity !== undefined ? { identity } : {}),
      ...(version ? { version } : {}),
    });
    try {
      return await cairn.runUntil(() => body(cairn.worker));
    } finally {
      await cairn.close();
    }
  } finally {
    await connection.close();
  }
}
