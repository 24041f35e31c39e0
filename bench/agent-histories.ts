/**
 * The histories of one agent run for its latency budget: the root workflow and, recursively,
 * every child it started (the latest run of each), reduced to budget events.
 */
import type { Client } from '@temporalio/client';
import { budgetHistory } from './budget-events';
import type { BudgetHistory } from './latency-budget';

/** The root's history and its children's, depth first. */
export async function agentHistories(client: Client, rootWorkflowId: string): Promise<BudgetHistory[]> {
  const out: BudgetHistory[] = [];
  const queue = [rootWorkflowId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const history = budgetHistory(id, await client.workflow.getHandle(id).fetchHistory());
    out.push(history);
    for (const event of history.events) {
      if (event.type === 'EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED' && event.name) queue.push(event.name);
    }
  }
  return out;
}
