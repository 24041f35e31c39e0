/**
 * Builds a Cairn worker: the workflow bundle (or source path) plus the activities made from
 * the configuration. Used by `npm run worker`, `npm start` and the tests, so all three run
 * the same wiring.
 */
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities/create-activities';
import { createOpenAiClient } from '../activities/llm/openai-client';
import type { CairnConfig } from '../config/config';
import { connectionOptions } from '../config/temporal-connection';

/** Where the worker gets workflow code: a prebuilt bundle (tests) or the source folder. */
export type WorkflowSource = Pick<WorkerOptions, 'workflowBundle'> | Pick<WorkerOptions, 'workflowsPath'>;

/** The path of the workflow bundle entry, for `bundleWorkflowCode` and `workflowsPath`. */
export const WORKFLOWS_PATH = require.resolve('../workflows');

export interface CreateWorkerOptions {
  config: CairnConfig;
  /** Defaults to bundling `workflows/` at start. */
  workflows?: WorkflowSource;
  /** Reuse a connection (tests); otherwise one is opened from the configuration. */
  connection?: NativeConnection;
}

/** Creates (but does not run) a worker on `config.taskQueue`. */
export async function createWorker({ config, workflows, connection }: CreateWorkerOptions): Promise<Worker> {
  const conn = connection ?? (await NativeConnection.connect(connectionOptions(config.temporal)));
  const activities = createActivities({ openai: createOpenAiClient(config.llm), defaultModel: config.llm.model });
  return Worker.create({
    connection: conn,
    namespace: config.temporal.namespace,
    taskQueue: config.taskQueue,
    ...(workflows ?? { workflowsPath: WORKFLOWS_PATH }),
    activities,
    ...(config.llm.ratePerSecond ? { maxTaskQueueActivitiesPerSecond: config.llm.ratePerSecond } : {}),
  });
}
