/**
 * History events as the latency budget reads them (bench/latency-budget.ts): the proto events a
 * client fetches, reduced to their time, type and the links between them.
 */
import { temporal } from '@temporalio/proto';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import type { BudgetEvent, BudgetHistory } from './latency-budget';

type IHistoryEvent = temporal.api.history.v1.IHistoryEvent;
const { EventType } = temporal.api.enums.v1;

/** The `…EventAttributes` object an event carries (exactly one is set). */
function attributesOf(event: IHistoryEvent): Record<string, unknown> | undefined {
  for (const [key, value] of Object.entries(event)) {
    if (key.endsWith('EventAttributes') && value && typeof value === 'object') return value as Record<string, unknown>;
  }
  return undefined;
}

/** A Long, number or absent event id as a number. */
function idOf(value: unknown): number | undefined {
  // Event ids are int64: protobufjs decodes them as Long objects, which print as decimal strings.
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'object' && value !== null
        ? Number((value as { toString(): string }).toString())
        : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** One event, reduced. */
export function budgetEvent(event: IHistoryEvent): BudgetEvent {
  const attributes = attributesOf(event) ?? {};
  const type = EventType[event.eventType ?? 0] ?? 'EVENT_TYPE_UNSPECIFIED';
  const activityType = attributes['activityType'] as { name?: string } | undefined;
  const name =
    type === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED'
      ? activityType?.name
      : type === 'EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED'
        ? (attributes['workflowId'] as string | undefined)
        : undefined;
  // A timer's fired event names the timer's started event; the budget reads it as "scheduled".
  const scheduledEventId = idOf(
    attributes['scheduledEventId'] ?? (type === 'EVENT_TYPE_TIMER_FIRED' ? attributes['startedEventId'] : undefined),
  );
  const initiatedEventId = idOf(attributes['initiatedEventId']);
  return {
    eventId: idOf(event.eventId) ?? 0,
    time: optionalTsToMs(event.eventTime) ?? 0,
    type,
    ...(name ? { name } : {}),
    ...(scheduledEventId ? { scheduledEventId } : {}),
    ...(initiatedEventId ? { initiatedEventId } : {}),
  };
}

/** One workflow's history, reduced. */
export function budgetHistory(workflowId: string, history: temporal.api.history.v1.IHistory): BudgetHistory {
  return { workflowId, events: (history.events ?? []).map(budgetEvent) };
}
