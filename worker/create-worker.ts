/**
 * Builds a Cairn worker: the workflow bundle (or source path) plus the activities made from
 * the configuration. Used by `npm run worker`, `npm start` and the tests, so all three run
 * the same wiring.
 */
import { UPGRADE_NOTE } from './upgrade-note';
import { Client } from '@temporalio/client';
import { checkSearchAttributes } from './search-attribute-check';
import { connectTemporal } from '../temporal/connection';
import { NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { createLivePublisher } from '../activities/live/live-publisher';
import { createStreamSupport } from '../activities/llm/stream-support';
import { createActivities } from '../activities/create-activities';
import { configuredSecrets, createRedactor } from '../config/redact-secrets';
import { startDemoServer } from '../llm-servers/demo-model/demo-server';
import { createOpenAiClient } from '../activities/llm/openai-client';
import { conversationReader } from '../activities/llm/read-conversation';
import type { ToolDefinition } from '../activities/tools/define-tool';
import type { CairnConfig } from '../config/config';
import type { WorkerVersion } from '../config/versioning-config';
import { connectionOptions } from '../temporal/connection-options';
import { cairnDataConverter, workerDataConverter } from '../temporal/payloads/data-converter';
import { DEMO_MODEL } from '../workflows/model/llm/llm-types';
import { llmTaskQueue } from '../workflows/base/llm-task-queue';
import { loadConfiguredTools } from '../activities/tools/load-configured-tools';
import { regexToolNotes } from '../activities/tools/tool-schema-regex';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createWorkerTelemetry } from './telemetry/worker-telemetry';
import {
  PRELOAD_MODULES,
  prebuiltWorkflowBundle,
  WORKFLOW_INTERCEPTOR_MODULES,
  WORKFLOWS_PATH,
} from './workflows-path';
import { DAY_MS, startWorkspaceRetention, temporalCloseTime } from './workspace-retention';

/** Where the worker gets workflow code: a prebuilt bundle (tests) or the source folder. */
/** Most pollers the LLM worker keeps on its task queue. */
const MAX_LLM_POLLERS = 50;

export type WorkflowSource = Pick<WorkerOptions, 'workflowBundle'> | Pick<WorkerOptions, 'workflowsPath'>;

export interface CreateWorkerOptions {
  config: CairnConfig;
  /** Defaults to the bundle `npm run build` made, else to bundling `workflows/` at start. */
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
  /**
   * The Worker Deployment version both workers join (docs/operations.md#deploying-a-new-version);
   * unversioned when absent, as in tests that do not opt in.
   */
  version?: WorkerVersion;
  /** Collects spans here instead of where the configuration says (tests). */
  spanProcessor?: SpanProcessor;
}

/**
 * A Cairn worker: one Temporal worker for workflows and tool activities on the task queue, one
 * for LLM activities on `<task queue>-llm` (rate-limited across all workers), and one for each
 * named endpoint's on `<task queue>-llm-<endpoint>` (CAIRN_LLM_ENDPOINTS).
 */
export interface CairnWorker {
  worker: Worker;
  llmWorker: Worker;
  /** Runs them all until they are shut down (SIGINT / SIGTERM). */
  run: () => Promise<void>;
  /** Runs them all until `body` settles, then shuts them down. */
  runUntil: <T>(body: () => Promise<T>) => Promise<T>;
  /** Closes the connections this function opened. */
  close: () => Promise<void>;
  /** Lines for the start-up log: the upgrade note, and what the start-up checks could not settle (e.g. search attributes not listable). */
  notes: string[];
}

/** Creates (but does not run) a worker on `config.taskQueue`. */
export async function createWorker({
  config,
  workflows,
  connection,
  tools,
  identity,
  version,
  spanProcessor,
}: CreateWorkerOptions): Promise<CairnWorker> {
  // The caller's bundle (tests), else the one `npm run build` made, else none: bundle the source now.
  const source = workflows ?? prebuiltWorkflowBundle();
  const options = connectionOptions(config.temporal);
  const workerConnection = connection ?? (await NativeConnection.connect(options));
  // Activities read conversations through a client connection of their own.
  const clientConnection = await connectTemporal(options);
  // Refuse before polling when the namespace lacks Cairn's search attributes (every agent would hang).
  let searchAttributesNote: string | undefined;
  try {
    searchAttributesNote = await checkSearchAttributes(clientConnection, config.temporal.namespace);
  } catch (err) {
    await clientConnection.close();
    if (!connection) await workerConnection.close();
    throw err;
  }
  // Compression and encryption (temporal/payloads/data-converter.ts): the same codecs for both workers and the client.
  const dataConverter = cairnDataConverter(config.payloads);
  const activityClient = new Client({
    connection: clientConnection,
    namespace: config.temporal.namespace,
    dataConverter,
  });
  const conversations = conversationReader(activityClient);
  const configured = await loadConfiguredTools(config);
  // No endpoint configured: the labelled offline demo model, served on loopback.
  const demo = config.llm.demo ? await startDemoServer() : undefined;
  const llm = demo ? { ...config.llm, baseUrl: demo.baseUrl, model: DEMO_MODEL } : config.llm;
  const activityDeps = {
    openai: createOpenAiClient(llm),
    defaultModel: llm.model,
    conversations,
    workspace: config.workspace,
    ledgerDir: config.ledgerDir,
    redact: createRedactor(configuredSecrets(config)),
    autoApprove: config.tools.autoApprove,
    ...(config.tools.policy ? { policy: config.tools.policy } : {}),
    fetchAllow: config.tools.fetchAllow,
    tools: [...configured.tools, ...(tools ?? [])],
    prices: config.prices,
    prompts: config.prompts,
    models: config.llm.models,
    streams: createStreamSupport(config.llm.stream),
    // Model calls' deltas go to their agents' live streams, which run on the workflow task queue.
    live: createLivePublisher({
      client: activityClient,
      taskQueue: config.taskQueue,
      warn: (message) => {
        Runtime.instance().logger.warn(message);
      },
    }),
  };
  const { callLlm, ...otherActivities } = createActivities(activityDeps);
  const telemetry = createWorkerTelemetry({
    telemetry: config.telemetry,
    defaultModel: llm.model,
    knownModels: [...Object.keys(config.llm.models), ...Object.keys(config.prices)],
    client: activityClient,
    taskQueue: config.taskQueue,
    ...(spanProcessor ? { spanProcessor } : {}),
  });
  const common = {
    connection: workerConnection,
    namespace: config.temporal.namespace,
    // Heartbeats are how cancellation reaches an activity; the default throttle (80% of the
    // heartbeat timeout) would leave a cancelled LLM call running for up to 24 s.
    maxHeartbeatThrottleInterval: '2 seconds',
    // With keys, messages that arrive unencrypted are marked for the workflow to refuse.
    dataConverter: workerDataConverter(config.payloads),
    ...(identity !== undefined ? { identity } : {}),
    ...deploymentOptions(version),
  } as const;
  const worker = await Worker.create({
    ...common,
    taskQueue: config.taskQueue,
    ...(source ?? { workflowsPath: WORKFLOWS_PATH, bundlerOptions: { preloadModules: PRELOAD_MODULES } }),
    interceptors: {
      activity: telemetry.activityInterceptors,
      // Only used when bundling at start; a prebuilt bundle already holds these modules.
      ...(source ? {} : { workflowModules: WORKFLOW_INTERCEPTOR_MODULES }),
    },
    sinks: telemetry.sinks,
    activities: otherActivities,
    ...(config.cachedWorkflows !== undefined ? { maxCachedWorkflows: config.cachedWorkflows } : {}),
    ...(config.workflowThreads !== undefined ? { workflowThreadPoolSize: config.workflowThreads } : {}),
  });
  const llmWorker = await Worker.create({
    ...common,
    taskQueue: llmTaskQueue(config.taskQueue),
    activities: { callLlm },
    interceptors: { activity: telemetry.activityInterceptors },
    maxConcurrentActivityTaskExecutions: config.llm.concurrency,
    // A poller per call slot (up to a bound): a burst of messages gets its model calls started at
    // once, where the SDK's 10 pollers left them queued on the server.
    activityTaskPollerBehavior: { type: 'simple-maximum', maximum: Math.min(config.llm.concurrency, MAX_LLM_POLLERS) },
    ...(config.llm.ratePerSecond ? { maxTaskQueueActivitiesPerSecond: config.llm.ratePerSecond } : {}),
  });
  // Each named endpoint (CAIRN_LLM_ENDPOINTS): its calls on a task queue of their own, with its client and limits.
  const endpointWorkers = await Promise.all(
    config.llm.endpoints.map((endpoint) => {
      const concurrency = endpoint.concurrency ?? config.llm.concurrency;
      const openai = createOpenAiClient({ ...endpoint, timeoutMs: config.llm.timeoutMs });
      return Worker.create({
        ...common,
        taskQueue: llmTaskQueue(config.taskQueue, endpoint.name),
        activities: { callLlm: createActivities({ ...activityDeps, openai, defaultModel: endpoint.model }).callLlm },
        interceptors: { activity: telemetry.activityInterceptors },
        maxConcurrentActivityTaskExecutions: concurrency,
        activityTaskPollerBehavior: { type: 'simple-maximum', maximum: Math.min(concurrency, MAX_LLM_POLLERS) },
        ...(endpoint.ratePerSecond ? { maxTaskQueueActivitiesPerSecond: endpoint.ratePerSecond } : {}),
      });
    }),
  );
  const workers = [worker, llmWorker, ...endpointWorkers];
  // Finished agents' folders older than the retention: swept now and daily, outside any workflow.
  const retention = config.workspaceRetentionDays
    ? startWorkspaceRetention(
        {
          root: config.workspace,
          retentionMs: config.workspaceRetentionDays * DAY_MS,
          closeTime: temporalCloseTime(activityClient),
        },
        Runtime.instance().logger,
      )
    : undefined;
  return {
    worker,
    llmWorker,
    notes: [
      UPGRADE_NOTE,
      ...(searchAttributesNote ? [searchAttributesNote] : []),
      // User and MCP tools only: a built-in's regular expressions are Cairn's own.
      ...regexToolNotes([...configured.tools, ...(tools ?? [])]),
    ],
    run: async () => {
      await Promise.all(workers.map((w) => w.run()));
    },
    runUntil: async <T>(body: () => Promise<T>) => {
      const done = body();
      // Both workers must have stopped before anyone closes their connection, whatever failed.
      const stopped = await Promise.allSettled(workers.map((w) => w.runUntil(done)));
      const result = await done; // the body's own failure first: it says what went wrong
      for (const outcome of stopped) if (outcome.status === 'rejected') throw outcome.reason;
      return result;
    },
    close: async () => {
      retention?.stop();
      await telemetry.close();
      await configured.close();
      await demo?.close();
      await conversations.drain();
      await clientConnection.close();
      if (!connection) await workerConnection.close();
    },
  };
}

/**
 * Worker Deployment options: workflows are PINNED to the version that started them unless they
 * say otherwise (agents move at safe boundaries by continuing as new; see agent-workflow.ts).
 */
function deploymentOptions(version: WorkerVersion | undefined): Pick<WorkerOptions, 'workerDeploymentOptions'> {
  if (!version) return {};
  return { workerDeploymentOptions: { version, useWorkerVersioning: true, defaultVersioningBehavior: 'PINNED' } };
}
