/**
 * The latency budget of one agent run, from its workflows' histories: every moment between the
 * client's start call and the client seeing the result is given to the most specific thing the
 * histories say was going on then (a model call, a task waiting in matching, a workflow task on
 * the worker, a child starting or reporting back, a signal in flight), and what no event covers
 * is left "unattributed". Pure: the benchmark fetches the histories and the clock readings, this
 * only sorts time into buckets, so it is unit-tested with recorded histories.
 */

/** The fields of a history event the budget reads (event times in ms since the epoch). */
export interface BudgetEvent {
  eventId: number;
  time: number;
  type: string;
  /** ActivityTaskScheduled: the activity type; StartChildWorkflowExecutionInitiated: the workflow id. */
  name?: string;
  /** Started / completed events: the event that scheduled or initiated them. */
  scheduledEventId?: number;
  initiatedEventId?: number;
}

/** One workflow's history as the budget reads it. */
export interface BudgetHistory {
  workflowId: string;
  events: BudgetEvent[];
}

/** Where time goes, most specific first: a moment covered by several goes to the first. */
export const BUDGET_CATEGORIES = [
  'model call (activity running)',
  'tool activity running',
  'activity matching (scheduled → started)',
  'workflow task on the worker (started → completed)',
  'workflow task matching (scheduled → started)',
  'child start (initiated → child started)',
  'child completion (child closed → parent told)',
  'signal delivery (initiated → signalled)',
  'timer',
  'client start (call → workflow started)',
  'client result (workflow closed → client told)',
] as const;

export type BudgetCategory = (typeof BUDGET_CATEGORIES)[number];
export const UNATTRIBUTED = 'unattributed';

interface Interval {
  start: number;
  end: number;
  category: BudgetCategory;
}

export interface BudgetInput {
  histories: BudgetHistory[];
  /** The root workflow's id (the agent): its start and close bound the run with the client times. */
  rootWorkflowId: string;
  /** `Date.now()` when the client called start, and when it had the result. */
  clientStart: number;
  clientDone: number;
  /** Activity types that are model calls. */
  modelActivities: string[];
}

/** Milliseconds per category over the run, plus the totals the verdict needs. */
export interface Budget {
  totalMs: number;
  byCategory: Record<BudgetCategory | typeof UNATTRIBUTED, number>;
  /** Model calls in the run (scheduled model activities that started). */
  modelCalls: number;
  /** Workflow tasks and activities the run took, over all its workflows. */
  workflowTasks: number;
  activities: number;
  childWorkflows: number;
  signals: number;
}

const CLOSE_TYPES = new Set([
  'EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED',
  'EVENT_TYPE_WORKFLOW_EXECUTION_FAILED',
  'EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED',
  'EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED',
  'EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT',
  'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW',
]);
const WFT_ENDS = new Set([
  'EVENT_TYPE_WORKFLOW_TASK_COMPLETED',
  'EVENT_TYPE_WORKFLOW_TASK_FAILED',
  'EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT',
]);
const ACTIVITY_ENDS = new Set([
  'EVENT_TYPE_ACTIVITY_TASK_COMPLETED',
  'EVENT_TYPE_ACTIVITY_TASK_FAILED',
  'EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT',
  'EVENT_TYPE_ACTIVITY_TASK_CANCELED',
]);
const CHILD_ENDS = new Set([
  'EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED',
  'EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED',
  'EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED',
  'EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED',
  'EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT',
]);

/** The intervals one history contributes, and its counts. */
function intervalsOf(history: BudgetHistory, byId: Map<string, BudgetHistory>, modelActivities: Set<string>) {
  const intervals: Interval[] = [];
  const counts = { modelCalls: 0, workflowTasks: 0, activities: 0, childWorkflows: 0, signals: 0 };
  const events = new Map(history.events.map((e) => [e.eventId, e]));
  const startedAt = (id: string): number | undefined =>
    byId.get(id)?.events.find((e) => e.type === 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED')?.time;
  const closedAt = (id: string): number | undefined => byId.get(id)?.events.find((e) => CLOSE_TYPES.has(e.type))?.time;
  const add = (start: number | undefined, end: number | undefined, category: BudgetCategory) => {
    if (start !== undefined && end !== undefined && end > start) intervals.push({ start, end, category });
  };
  for (const event of history.events) {
    const scheduled = event.scheduledEventId !== undefined ? events.get(event.scheduledEventId) : undefined;
    const initiated = event.initiatedEventId !== undefined ? events.get(event.initiatedEventId) : undefined;
    if (event.type === 'EVENT_TYPE_WORKFLOW_TASK_STARTED') {
      counts.workflowTasks++;
      add(scheduled?.time, event.time, 'workflow task matching (scheduled → started)');
    } else if (WFT_ENDS.has(event.type)) {
      const started = history.events.find(
        (e) => e.type === 'EVENT_TYPE_WORKFLOW_TASK_STARTED' && e.scheduledEventId === event.scheduledEventId,
      );
      add(started?.time, event.time, 'workflow task on the worker (started → completed)');
    } else if (event.type === 'EVENT_TYPE_ACTIVITY_TASK_STARTED') {
      counts.activities++;
      if (scheduled?.name !== undefined && modelActivities.has(scheduled.name)) counts.modelCalls++;
      add(scheduled?.time, event.time, 'activity matching (scheduled → started)');
    } else if (ACTIVITY_ENDS.has(event.type)) {
      const started = history.events.find(
        (e) => e.type === 'EVENT_TYPE_ACTIVITY_TASK_STARTED' && e.scheduledEventId === event.scheduledEventId,
      );
      const isModel = scheduled?.name !== undefined && modelActivities.has(scheduled.name);
      add(started?.time, event.time, isModel ? 'model call (activity running)' : 'tool activity running');
    } else if (event.type === 'EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED' && event.name) {
      counts.childWorkflows++;
      add(event.time, startedAt(event.name), 'child start (initiated → child started)');
    } else if (CHILD_ENDS.has(event.type) && initiated?.name) {
      add(closedAt(initiated.name), event.time, 'child completion (child closed → parent told)');
    } else if (event.type === 'EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED') {
      counts.signals++;
      add(initiated?.time, event.time, 'signal delivery (initiated → signalled)');
    } else if (event.type === 'EVENT_TYPE_TIMER_FIRED') {
      const timer = history.events.find(
        (e) => e.type === 'EVENT_TYPE_TIMER_STARTED' && e.eventId === event.scheduledEventId,
      );
      add(timer?.time, event.time, 'timer');
    }
  }
  return { intervals, counts };
}

/** Sorts the run's time into categories (see the module comment). */
export function latencyBudget(input: BudgetInput): Budget {
  const byId = new Map(input.histories.map((h) => [h.workflowId, h]));
  const models = new Set(input.modelActivities);
  const intervals: Interval[] = [];
  const counts = { modelCalls: 0, workflowTasks: 0, activities: 0, childWorkflows: 0, signals: 0 };
  for (const history of input.histories) {
    const part = intervalsOf(history, byId, models);
    intervals.push(...part.intervals);
    for (const key of Object.keys(counts) as (keyof typeof counts)[]) counts[key] += part.counts[key];
  }
  const root = byId.get(input.rootWorkflowId);
  const rootStart = root?.events.find((e) => e.type === 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED')?.time;
  const rootClose = root?.events.find((e) => CLOSE_TYPES.has(e.type))?.time;
  if (rootStart !== undefined && rootStart > input.clientStart)
    intervals.push({ start: input.clientStart, end: rootStart, category: 'client start (call → workflow started)' });
  if (rootClose !== undefined && input.clientDone > rootClose)
    intervals.push({
      start: rootClose,
      end: input.clientDone,
      category: 'client result (workflow closed → client told)',
    });
  const byCategory = Object.fromEntries(
    [...BUDGET_CATEGORIES, UNATTRIBUTED].map((c) => [c, 0]),
  ) as Budget['byCategory'];
  // Elementary segments between consecutive boundaries, each given to its most specific cover.
  const bounds = [...new Set([input.clientStart, input.clientDone, ...intervals.flatMap((i) => [i.start, i.end])])]
    .filter((t) => t >= input.clientStart && t <= input.clientDone)
    .sort((a, b) => a - b);
  const rank = (c: BudgetCategory) => BUDGET_CATEGORIES.indexOf(c);
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i] ?? 0;
    const to = bounds[i + 1] ?? 0;
    let best: BudgetCategory | undefined;
    for (const interval of intervals) {
      if (interval.start <= from && interval.end >= to && (best === undefined || rank(interval.category) < rank(best)))
        best = interval.category;
    }
    byCategory[best ?? UNATTRIBUTED] += to - from;
  }
  return { totalMs: input.clientDone - input.clientStart, byCategory, ...counts };
}

/**
 * The overhead (everything but the model's own latency) and how much of it the categories
 * account for: the model's latency is `modelCalls × latencyMs`; the rest of the time the model
 * activities ran is the activity's own overhead (client, serialisation, heartbeats).
 */
export function overheadShare(budget: Budget, latencyMs: number) {
  const model = Math.min(budget.byCategory['model call (activity running)'], budget.modelCalls * latencyMs);
  const overhead = budget.totalMs - model;
  const unattributed = budget.byCategory[UNATTRIBUTED];
  return { modelMs: model, overheadMs: overhead, accounted: overhead > 0 ? (overhead - unattributed) / overhead : 1 };
}
