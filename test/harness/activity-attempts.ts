/**
 * How activities show in a workflow's history, as an operator reads it in the Temporal UI: their
 * summaries, and their retries (the server writes one started event per activity, for its last
 * attempt, carrying the attempt number and the failure of the attempt before). Tests read it to
 * prove that a given failure was retried, not just that the call succeeded in the end.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

/** The last attempt of one activity, and why the attempt before it failed. */
export interface LastAttempt {
  attempt: number;
  /** The previous attempt's failure: its message and, for application failures, code and retryability. */
  previousFailure?: { message: string; type?: string; nonRetryable?: boolean };
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** The marker the SDK records for a local activity's result. */
export const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

/** The activity's summary as the workflow set it (what the Temporal UI shows). */
function summaryOf(event: HistoryEvent): string | undefined {
  const data = event.userMetadata?.summary?.data;
  return data ? (JSON.parse(Buffer.from(data).toString()) as string) : undefined;
}

/** Every activity's summary in order, local activities (a recorded marker) included. */
export async function activitySummaries(handle: WorkflowHandle): Promise<string[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.flatMap((e) => {
    const local = e.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER;
    return e.activityTaskScheduledEventAttributes || local ? (summaryOf(e) ?? []) : [];
  });
}

/** The last attempt of each activity of `handle` whose summary is `summary`, in scheduling order. */
export async function lastAttempts(handle: WorkflowHandle, summary: string): Promise<LastAttempt[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  const scheduled = events.flatMap((e) =>
    e.activityTaskScheduledEventAttributes && summaryOf(e) === summary ? [String(e.eventId)] : [],
  );
  return scheduled.flatMap((id) =>
    events.flatMap((e) => {
      const started = e.activityTaskStartedEventAttributes;
      if (!started || String(started.scheduledEventId) !== id) return [];
      const failure = started.lastFailure;
      const info = failure?.applicationFailureInfo;
      return [
        {
          attempt: started.attempt ?? 0,
          ...(failure
            ? {
                previousFailure: {
                  message: failure.message ?? '',
                  ...(info ? { type: info.type ?? undefined, nonRetryable: info.nonRetryable ?? false } : {}),
                },
              }
            : {}),
        },
      ];
    }),
  );
}
