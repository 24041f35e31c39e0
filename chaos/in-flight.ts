/**
 * Work a restart or kill held up, read from history after the agents ended: activities and
 * workflow tasks scheduled before the outage began and closed only after it ended. Their
 * completion had to wait for the part that was out (or be retried), so the outage hit them —
 * evidence that counts what happened, not when the fault was timed.
 */
import type { Histories, HistoryEvent } from './outcomes';

/** When a part was out, in wall-clock milliseconds (`Date.now()`, as history event times are). */
export interface Outage {
  /** When it was gone (its process exited). */
  from: number;
  /** When it served again. */
  to: number;
}

/** Work whose life spanned an outage, one line per task: `<workflow id> <what>`. */
export interface InFlight {
  activities: string[];
  workflowTasks: string[];
}

const timeOf = (event: HistoryEvent): number =>
  Number(event.eventTime?.seconds ?? 0) * 1000 + Math.floor((event.eventTime?.nanos ?? 0) / 1e6);

/** The scheduled event a closing activity or workflow task event answers, with what kind of task it is. */
function closing(event: HistoryEvent): { scheduled: number; kind: 'activity' | 'workflow task' } | undefined {
  const activity =
    event.activityTaskCompletedEventAttributes ??
    event.activityTaskFailedEventAttributes ??
    event.activityTaskTimedOutEventAttributes ??
    event.activityTaskCanceledEventAttributes;
  if (activity) return { scheduled: Number(activity.scheduledEventId ?? 0), kind: 'activity' };
  const task =
    event.workflowTaskCompletedEventAttributes ??
    event.workflowTaskFailedEventAttributes ??
    event.workflowTaskTimedOutEventAttributes;
  if (task) return { scheduled: Number(task.scheduledEventId ?? 0), kind: 'workflow task' };
  return undefined;
}

/**
 * Activities and workflow tasks scheduled before `outage.from` and closed after `outage.to`,
 * of the workflows `among` (all read when omitted). Such a task was outstanding for the whole
 * outage: the fault held it up.
 */
export function inFlightAcross(histories: Histories, outage: Outage, among?: ReadonlySet<string>): InFlight {
  const found: InFlight = { activities: [], workflowTasks: [] };
  for (const [workflowId, events] of histories.events) {
    if (among && !among.has(workflowId)) continue;
    const scheduledAt = new Map<number, { at: number; name: string }>();
    for (const event of events) {
      const id = Number(event.eventId ?? 0);
      const activity = event.activityTaskScheduledEventAttributes;
      if (activity) scheduledAt.set(id, { at: timeOf(event), name: activity.activityType?.name ?? 'activity' });
      if (event.workflowTaskScheduledEventAttributes) scheduledAt.set(id, { at: timeOf(event), name: 'workflow task' });
      const closed = closing(event);
      const scheduled = closed && scheduledAt.get(closed.scheduled);
      if (!closed || !scheduled || scheduled.at >= outage.from || timeOf(event) <= outage.to) continue;
      const line = `${workflowId} ${scheduled.name} (event ${closed.scheduled})`;
      (closed.kind === 'activity' ? found.activities : found.workflowTasks).push(line);
    }
  }
  return found;
}

/** `3 activities and 1 workflow task in flight across <what>: a, b, …` for a scenario's notes. */
export function inFlightNote(found: InFlight, what: string): string {
  const all = [...found.activities, ...found.workflowTasks];
  const some = all.slice(0, 4).join(', ');
  return (
    `${found.activities.length} activities and ${found.workflowTasks.length} workflow tasks in flight across ${what}` +
    (all.length > 0 ? `: ${some}${all.length > 4 ? ', …' : ''}` : '')
  );
}
