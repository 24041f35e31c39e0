/**
 * The lean floor of benchmark 9: the simplest Temporal program with a parked thread's message
 * path. One workflow per thread waits (on a long timer, as a thread waits on its idle timeout)
 * for a `send` update, whose handler runs one streamed model-call activity and returns its
 * text (on the thread's task queue, or on its own as Cairn's model calls run). No validation, no live stream, no title, no routing: what a message costs in Temporal
 * and the TypeScript SDK alone. Part of the lean bundle (bench/lean/lean-workflow.ts).
 */
import { condition, defineUpdate, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { LeanThreadActivities } from './lean-thread-activities';

export const leanSend = defineUpdate<string, [string]>('send');

/** Where the model call runs: the thread's own task queue, or (`llmQueue`) `<queue>-llm` as Cairn's do. */
export interface LeanThreadInput {
  llmQueue?: boolean;
}

/** Waits for messages; each is answered by one model call. */
export async function leanThread(input: LeanThreadInput = {}): Promise<void> {
  const { workflowId: threadId, taskQueue } = workflowInfo();
  // On its own queue the call cannot be dispatched eagerly (with the workflow task's completion).
  const { chatReply } = proxyActivities<LeanThreadActivities>({
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 3 },
    ...(input.llmQueue ? { taskQueue: `${taskQueue}-llm` } : {}),
  });
  setHandler(leanSend, (text) => chatReply({ threadId, text }));
  await condition(() => false, '30 days');
}
