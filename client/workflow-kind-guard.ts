/**
 * The one check that a workflow id names a workflow this client may act on. A namespace holds
 * other applications' workflows too: without it, `POST /api/agents/payroll-2026-11/cancel`
 * cancelled someone else's payroll run, `pause` signalled it and a viewer's `GET` queried it.
 * Every call of the client library on one workflow goes through here first, and a workflow of
 * any other type is answered exactly like a missing one (`NOT_FOUND`), so its existence is not
 * revealed either. A client for another kind (threads: `threadWorkflow`) passes its own types.
 * (One shortcut: a thread's `send` to a thread its client already checked names the first run
 * of that thread's chain instead — client/threads/known-threads.ts — which no other workflow can match.)
 */
import { WorkflowNotFoundError, type Client, type WorkflowExecutionDescription } from '@temporalio/client';
import { ClientError } from './client-error';
import { AGENT_WORKFLOW_TYPE } from '../workflows/model/agent/agent-contract';
import { THREAD_WORKFLOW_TYPE } from '../workflows/contract/thread-contract';

/** The workflow types agent calls act on: top-level and nested agents alike run `agentWorkflow`. */
export const AGENT_WORKFLOW_TYPES: readonly string[] = [AGENT_WORKFLOW_TYPE];

/** Which workflows a guard admits, and what the caller calls them in its NOT_FOUND message. */
export interface WorkflowKind {
  types: readonly string[];
  noun: string;
}

/** Agents, for AgentClient. */
export const AGENT_KIND: WorkflowKind = { types: AGENT_WORKFLOW_TYPES, noun: 'agent' };

/** Threads, for ThreadClient and the thread's live stream. */
export const THREAD_KIND: WorkflowKind = { types: [THREAD_WORKFLOW_TYPE], noun: 'thread' };

/**
 * Describes workflow `id` and runs `call` with that description when its type is one of `kind`'s;
 * otherwise — a workflow of another type, or none — throws ClientError `NOT_FOUND`. A workflow
 * that disappears while `call` runs is `NOT_FOUND` as well.
 */
export async function withWorkflowOfKind<T>(
  client: Client,
  id: string,
  kind: WorkflowKind,
  call: (described: WorkflowExecutionDescription) => Promise<T>,
): Promise<T> {
  const notFound = () => new ClientError('NOT_FOUND', `no ${kind.noun} "${id}"`);
  try {
    const described = await client.workflow.getHandle(id).describe();
    if (!kind.types.includes(described.type)) throw notFound();
    return await call(described);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw notFound();
    throw err;
  }
}
