/**
 * The lean baseline's worker and client: its own small workflow bundle (bench/lean/
 * lean-workflow.ts, built once per run), one Temporal worker with default settings on its own
 * task queue serving the workflow and both activities, and a starter for agents.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection } from '@temporalio/worker';
import { leanActivities } from './lean-activities';
import type { LeanAgentInput, LeanAgentResult } from './lean-types';

/** The baseline's workflow bundle. */
export async function bundleLeanWorkflows(): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('./lean-workflow'),
    logger: new DefaultLogger('WARN'),
  });
  return code;
}

/** Starts lean agents and waits for them. */
export interface LeanAgents {
  taskQueue: string;
  /** Starts one agent; resolves with its workflow id. */
  start(input: LeanAgentInput): Promise<string>;
  result(workflowId: string): Promise<LeanAgentResult>;
}

/** A lean worker (not yet running) and a starter on its task queue. */
export async function createLeanWorker(options: {
  connection: NativeConnection;
  client: Client;
  workflowCode: string;
  llmBaseUrl: string;
}): Promise<{ worker: Worker; agents: LeanAgents }> {
  const taskQueue = `lean-${randomUUID().slice(0, 8)}`;
  const worker = await Worker.create({
    connection: options.connection,
    taskQueue,
    workflowBundle: { code: options.workflowCode },
    activities: leanActivities(options.llmBaseUrl),
  });
  const agents: LeanAgents = {
    taskQueue,
    async start(input) {
      const workflowId = `lean-${randomUUID()}`;
      await options.client.workflow.start('leanAgent', { taskQueue, workflowId, args: [input] });
      return workflowId;
    },
    result: (workflowId) => options.client.workflow.getHandle(workflowId).result() as Promise<LeanAgentResult>,
  };
  return { worker, agents };
}
