/**
 * Builds a Cairn worker: the workflow bundle (or source path) plus the activities made from
 * the configuration. Used by `npm run worker`, `npm start` and the tests, so all three run
 * the same wiring.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities/create-activities';
import { configuredSecrets, createRedactor } from '../config/redact-secrets';
import { startDemoServer } from '../llm-servers/demo-model/demo-server';
import { createOpenAiClient } from '../activities/llm/openai-client';
import { conversationReader } from '../activities/llm/read-conversation';
import type { ToolDefinition } from '../activities/tools/define-tool';
import type { CairnConfig } from '../config/config';
import { connectionOptions } from '../config/temporal-connection';
import { DEMO_MODEL } from '../workflows/llm-types';
import { llmTaskQueue } from '../workflows/llm-task-queue';
import { loadConfiguredTools } from './load-tools';
import { PRELOAD_MODULES, WORKFLOWS_PATH } from './workflows-path';

/** Where the worker gets workflow code: a prebuilt bundle (tests) or the source folder. */
export type WorkflowSource = Pick<WorkerOptions, 'workflowBundle'> | Pick<WorkerOptions, 'workflowsPath'>;

export interface CreateWorkerOptions {
  config: CairnConfig;
  /** Defaults to bundling `workflows/` at start. */
  workflows?: WorkflowSource;
  /** Reuse a connection (tests); otherwise one is opened from the configuration. */
  connection?: NativeConnection;
  /** Tools beside the built-ins. */
  tools?: ToolDefinition[];
  /**
   * The identity both Temporal workers report (it shows on every task they start in history).
   * Defaults to the SDK's `<pid>@<host>`, which every worker of one process shares.
   */
  identity?: string;
}

/**
 * A Cairn worker: one Temporal worker for workflows and tool activities on the task queue, and
 * one for LLM activities on `<task queue>-llm` (rate-limited across all workers).
 */
export interface CairnWorker {
  worker: Worker;
  llmWorker: Worker;
  /** Runs both until they are shut down (SIGINT / SIGTERM). */
  run: () => Promise<void>;
  /** Runs both until `body` settles, then shuts them down. */
  runUntil: <T>(body: () => Promise<T>) => Promise<T>;
  /** Closes the connections this function opened. */
  close: () => Promise<void>;
}

/** Creates (but does not run) a worker on `config.taskQueue`. */
export async function createWorker({
  config,
  workflows,
  connection,
  tools,
  identity,
}: CreateWorkerOptions): Promise<CairnWorker> {
  const options = connectionOptions(config.temporal);
  const workerConnection = connection ?? (await NativeConnection.connect(options));
  // Activities read conversations through a client connection of their own.
  const clientConnection = await Connection.connect(options);
  const conversations = conversationReader(
    new Client({ connection: clientConnection, namespace: config.temporal.namespace }),
  );
  const configured = await loadConfiguredTools(config);
  // No endpoint configured: the labelled offline demo model, served on loopback.
  const demo = config.llm.demo ? await startDemoServer() : undefined;
  const llm = demo ? { ...config.llm, baseUrl: demo.baseUrl, model: DEMO_MODEL } : config.llm;
  const activities = createActivities({
    openai: createOpenAiClient(llm),
    defaultModel: llm.model,
    conversations,
    workspace: config.workspace,
    ledgerDir: config.ledgerDir,
    redact: createRedactor(configuredSecrets(config)),
    autoApprove: config.tools.autoApprove,
    fetchAllow: config.tools.fetchAllow,
    tools: [...configured.tools, ...(tools ?? [])],
  });
  const { callLlm, ...otherActivities } = activities;
  const common = {
    connection: workerConnection,
    namespace: config.temporal.namespace,
    // Heartbeats are how cancellation reaches an activity; the default throttle (80% of the
    // heartbeat timeout) would leave a cancelled LLM call running for up to 24 s.
    maxHeartbeatThrottleInterval: '2 seconds',
    ...(identity !== undefined ? { identity } : {}),
  } as const;
  const worker = await Worker.create({
    ...common,
    taskQueue: config.taskQueue,
    ...(workflows ?? { workflowsPath: WORKFLOWS_PATH, bundlerOptions: { preloadModules: PRELOAD_MODULES } }),
    activities: otherActivities,
  });
  const llmWorker = await Worker.create({
    ...common,
    taskQueue: llmTaskQueue(config.taskQueue),
    activities: { callLlm },
    maxConcurrentActivityTaskExecutions: config.llm.concurrency,
    ...(config.llm.ratePerSecond ? { maxTaskQueueActivitiesPerSecond: config.llm.ratePerSecond } : {}),
  });
  return {
    worker,
    llmWorker,
    run: async () => {
      await Promise.all([worker.run(), llmWorker.run()]);
    },
    runUntil: async <T>(body: () => Promise<T>) => {
      const done = body();
      // Both workers must have stopped before anyone closes their connection, whatever failed.
      const stopped = await Promise.allSettled([worker.runUntil(done), llmWorker.runUntil(done)]);
      const result = await done; // the body's own failure first: it says what went wrong
      for (const outcome of stopped) if (outcome.status === 'rejected') throw outcome.reason;
      return result;
    },
    close: async () => {
      await configured.close();
      await demo?.close();
      await conversations.drain();
      await clientConnection.close();
      if (!connection) await workerConnection.close();
    },
  };
}
