/** Every run of a workflow, first to last, following its continue-as-new chain. */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

export async function runHistories(client: Client, workflowId: string): Promise<temporal.api.history.v1.IHistory[]> {
  const latest = await client.workflow.getHandle(workflowId).fetchHistory();
  const first = latest.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId;
  const runs: temporal.api.history.v1.IHistory[] = [];
  for (let runId = first ?? undefined; runId;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    runs.push(history);
    runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return runs;
}
