/**
 * The tools the workers of a task queue offer (`GET /api/tools`, `cairn tools` against a server):
 * what their `listTools` activity answers, fetched by a `toolCatalogueWorkflow` run under a
 * short execution timeout. No worker answering in that time is `AGENT_UNAVAILABLE` (HTTP 503),
 * told apart from an empty catalogue.
 */
import { randomUUID } from 'node:crypto';
import { TimeoutFailure, type Client, WorkflowFailedError } from '@temporalio/client';
import { z } from 'zod';
import { toolInfoSchema, type ToolInfo } from '../../workflows/model/tools/tool-types';
import { TOOL_CATALOGUE_WORKFLOW_TYPE, type toolCatalogueWorkflow } from '../../workflows/tool-catalogue-workflow';
import { ClientError } from '../client-error';

/** How long a worker has to answer with its tools. */
export const TOOL_CATALOGUE_TIMEOUT_MS = 5_000;

const catalogueSchema = z.array(toolInfoSchema);

/** The tools of task queue `taskQueue`'s workers; `AGENT_UNAVAILABLE` when none answers within `timeoutMs`. */
export async function workerTools(
  temporal: Client,
  taskQueue: string,
  timeoutMs = TOOL_CATALOGUE_TIMEOUT_MS,
): Promise<ToolInfo[]> {
  try {
    const tools = await temporal.workflow.execute<typeof toolCatalogueWorkflow>(TOOL_CATALOGUE_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: `tool-catalogue-${randomUUID()}`,
      workflowExecutionTimeout: timeoutMs,
      staticSummary: 'tool catalogue',
      args: [],
    });
    return catalogueSchema.parse(tools);
  } catch (err) {
    if (err instanceof WorkflowFailedError && err.cause instanceof TimeoutFailure)
      throw new ClientError(
        'AGENT_UNAVAILABLE',
        `no worker of task queue "${taskQueue}" answered with its tools in ${timeoutMs / 1000} s; try again`,
      );
    throw err;
  }
}
