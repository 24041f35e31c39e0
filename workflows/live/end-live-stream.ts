/**
 * An agent ends its live stream in-band: when its run ends for good (completed, failed,
 * cancelled, stopped — not when it continues as new) it signals `liveEnd` to
 * `<agent id>/stream`, which then closes once its open calls have finished. The signal is
 * awaited — one workflow task more at the end, as the server does not deliver a signal whose
 * sender closed in the task that sent it — outside any cancelled scope, and a stream that was
 * never started (no model call streamed) is no error. Behind the `liveStreamEnd` patch
 * (workflows/base/patches.ts): runs recorded before it end as they did.
 */
import {
  CancellationScope,
  ContinueAsNew,
  getExternalWorkflowHandle,
  patched,
  workflowInfo,
} from '@temporalio/workflow';
import { PATCHES } from '../base/patches';
import { liveEndSignal, liveStreamId } from '../contract/live-stream-names';

/** Runs an agent's run, ending its live stream when the run ends other than by continuing as new. */
export async function endingLiveStream<T>(run: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (err) {
    if (!(err instanceof ContinueAsNew)) await endLiveStream();
    throw err;
  }
  await endLiveStream();
  return result;
}

async function endLiveStream(): Promise<void> {
  if (!patched(PATCHES.liveStreamEnd)) return;
  await tellLiveStreamEnded();
}

/**
 * Tells this workflow's live stream (`<workflow id>/stream`) that its owner has ended: awaited,
 * outside any cancelled scope; a stream never started is no error. Callers gate it by their patch.
 */
export async function tellLiveStreamEnded(): Promise<void> {
  const stream = getExternalWorkflowHandle(liveStreamId(workflowInfo().workflowId));
  await CancellationScope.nonCancellable(() => stream.signal(liveEndSignal)).catch(() => undefined);
}
