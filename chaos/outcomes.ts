/**
 * How a scenario's agents ended, read through the public contract only: the workflow's status
 * (`describe`), its result, the `state` query for agents that did not finish, and the histories
 * of each agent and its step children (`<agent id>/step-<step id>`) for evidence that the
 * disruptions hit work in flight (activity attempts beyond the first, workflow task timeouts).
 * A history that cannot be read is reported with the reason — the scan saw nothing there, which
 * is not the same as nothing being there.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { AgentClient } from '../client/agents/agent-client';
import { stepWorkflowId } from '../workflows/base/ids';
import { waitUntil } from '../testkit/wait-until';
import { STEP_IDS } from './agent-script';

/** Which agents completed, and a line per one that did not. */
export interface AgentOutcomes {
  completed: string[];
  failures: string[];
}

const describeError = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Polls until every agent's workflow has closed, `timeoutMs` passes or `giveUp` says waiting
 * is pointless (no worker left); errors while polling — e.g. while the server is down — are
 * retried. Then checks each agent's result.
 */
export async function waitForAgents(
  agents: AgentClient,
  ids: string[],
  { timeoutMs, giveUp }: { timeoutMs: number; giveUp: () => boolean },
): Promise<AgentOutcomes> {
  const client = agents.temporal;
  const closed = new Map<string, string>();
  const began = performance.now();
  await waitUntil(
    `all ${ids.length} agents closed`,
    async () => {
      if (giveUp()) return true;
      for (const id of ids.filter((i) => !closed.has(i))) {
        const { status } = await client.workflow.getHandle(id).describe();
        if (status.name !== 'RUNNING') closed.set(id, status.name);
      }
      return closed.size === ids.length;
    },
    { timeoutMs, intervalMs: 1_000 },
  ).catch(() => undefined); // the agents still open are reported below
  const waited = ((performance.now() - began) / 1000).toFixed(0);
  const outcomes: AgentOutcomes = { completed: [], failures: [] };
  for (const id of ids) {
    const status = closed.get(id);
    if (status === undefined) {
      outcomes.failures.push(`${id} still running after ${waited} s of waiting: ${await stateLine(agents, id)}`);
    } else if (status !== 'COMPLETED') {
      const reason = await agents.result(id).then(() => '', describeError);
      outcomes.failures.push(`${id} ended ${status}: ${reason}`);
    } else {
      const result = await agents.result(id);
      if (result.status === 'completed') outcomes.completed.push(id);
      else outcomes.failures.push(`${id} closed with result status ${result.status}`);
    }
  }
  return outcomes;
}

async function stateLine(agents: AgentClient, id: string): Promise<string> {
  try {
    // A query needs a live worker; without one it would wait for the server's deadline.
    const noAnswer = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5_000));
    const state = await Promise.race([agents.state(id), noAnswer]);
    const steps = state.steps.map((s) => `${s.id}=${s.status}`).join(' ');
    return `phase ${state.phase}, steps ${steps || 'none'}${state.error ? `, error ${state.error}` : ''}`;
  } catch (err) {
    return `state query failed (${describeError(err)})`;
  }
}

/** A history event, as the client returns it. */
export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** The workflow ids of `ids` (agents) and their step children: every workflow a scenario's agents ran. */
export const workflowIdsOf = (ids: string[]): string[] =>
  ids.flatMap((id) => [id, ...STEP_IDS.map((s) => stepWorkflowId(id, s))]);

/** The histories a scan read, by workflow id, and a line per history it could not read. */
export interface Histories {
  events: Map<string, HistoryEvent[]>;
  /** `<workflow id>: <error>` for each fetch that failed: the scan saw nothing there, and says so. */
  unread: string[];
}

/** Reads the latest run's history of each workflow; a failed fetch is reported in `unread`, never skipped. */
export async function readHistories(client: Client, workflowIds: string[]): Promise<Histories> {
  const histories: Histories = { events: new Map(), unread: [] };
  for (const workflowId of workflowIds) {
    try {
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      histories.events.set(workflowId, history.events ?? []);
    } catch (err) {
      histories.unread.push(`${workflowId}: ${describeError(err)}`);
    }
  }
  return histories;
}

/** Evidence from history that disruptions hit work in flight. */
export interface HistoryStats {
  /** Activity attempts beyond the first (LLM and tool calls retried after a kill or restart). */
  activityRetries: number;
  /** Workflow tasks that timed out (a worker died holding them). */
  workflowTaskTimeouts: number;
  /** Workflow tasks that failed, with their cause — a determinism problem shows up here. */
  workflowTaskFailures: string[];
}

/** Counts retries, timeouts and failed workflow tasks in the histories read. */
export function historyStats(histories: Histories): HistoryStats {
  const stats: HistoryStats = { activityRetries: 0, workflowTaskTimeouts: 0, workflowTaskFailures: [] };
  for (const [workflowId, events] of histories.events) {
    for (const event of events) {
      if ((event.activityTaskStartedEventAttributes?.attempt ?? 1) > 1) stats.activityRetries++;
      if (event.workflowTaskTimedOutEventAttributes) stats.workflowTaskTimeouts++;
      const failed = event.workflowTaskFailedEventAttributes;
      if (failed)
        stats.workflowTaskFailures.push(`${workflowId}: ${failed.cause ?? '?'} ${failed.failure?.message ?? ''}`);
    }
  }
  return stats;
}
