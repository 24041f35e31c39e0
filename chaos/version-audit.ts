/**
 * Which version ran what, read back from history: an agent's (or step's) chain of runs, newest
 * to oldest through each run's `continuedExecutionRunId`, with the build ids of the workers that
 * completed each run's workflow tasks, how the run ended, how many step children were still open
 * when it continued as new, and every failed workflow task (a non-determinism error shows there).
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** One run of a workflow. */
export interface RunRecord {
  runId: string;
  /** Build ids of the workers that completed its workflow tasks, in order of first use. */
  builds: string[];
  startedAt: number;
  /** When it continued as new, if it did. */
  continuedAt?: number;
  /** Step children started and not closed when it continued as new. */
  openChildrenAtMove: number;
  /** Timers that fired, by time (expiry timers among them). */
  timersFiredAt: number[];
  /** `cause message` of each failed workflow task. */
  failedTasks: string[];
}

const timeOf = (event: HistoryEvent): number =>
  Number(event.eventTime?.seconds ?? 0) * 1000 + Math.floor((event.eventTime?.nanos ?? 0) / 1e6);

function recordOf(runId: string, events: HistoryEvent[]): RunRecord & { previous?: string } {
  const record: RunRecord & { previous?: string } = {
    runId,
    builds: [],
    startedAt: events[0] ? timeOf(events[0]) : 0,
    openChildrenAtMove: 0,
    timersFiredAt: [],
    failedTasks: [],
  };
  let open = 0;
  for (const event of events) {
    const started = event.workflowExecutionStartedEventAttributes;
    if (started?.continuedExecutionRunId) record.previous = started.continuedExecutionRunId;
    const done = event.workflowTaskCompletedEventAttributes;
    const build = done?.deploymentVersion?.buildId;
    if (build && !record.builds.includes(build)) record.builds.push(build);
    if (event.startChildWorkflowExecutionInitiatedEventAttributes) open++;
    if (
      event.startChildWorkflowExecutionFailedEventAttributes ||
      event.childWorkflowExecutionCompletedEventAttributes ||
      event.childWorkflowExecutionFailedEventAttributes ||
      event.childWorkflowExecutionCanceledEventAttributes ||
      event.childWorkflowExecutionTerminatedEventAttributes ||
      event.childWorkflowExecutionTimedOutEventAttributes
    )
      open--;
    if (event.timerFiredEventAttributes) record.timersFiredAt.push(timeOf(event));
    const failed = event.workflowTaskFailedEventAttributes;
    if (failed) record.failedTasks.push(`${failed.cause ?? '?'} ${failed.failure?.message ?? ''}`.trim());
    if (event.workflowExecutionContinuedAsNewEventAttributes) {
      record.continuedAt = timeOf(event);
      record.openChildrenAtMove = open;
    }
  }
  return record;
}

/**
 * Every run of `workflowId`, oldest first; empty when the workflow does not exist. Any other
 * failure to read it throws (the scenario then fails with the reason) rather than reading as
 * "no runs".
 */
export async function runsOf(client: Client, workflowId: string): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  let runId: string | undefined;
  try {
    runId = (await client.workflow.getHandle(workflowId).describe()).runId;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return runs;
    throw err;
  }
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const { previous, ...record } = recordOf(runId, history.events ?? []);
    runs.unshift(record);
    runId = previous;
  }
  return runs;
}

/** Every build id that completed a workflow task of any of `runs`. */
export const buildsOf = (runs: RunRecord[]): string[] => [...new Set(runs.flatMap((r) => r.builds))];

/**
 * Where the chain moved from `from` to `to`: the last run on `from` continued as new with no
 * step child open and every later run ran on `to` only. Returns the move's time, or why not.
 */
export function moveOf(runs: RunRecord[], from: string, to: string): { at: number } | { problem: string } {
  const first = runs.findIndex((r) => r.builds.includes(to));
  if (first <= 0) return { problem: first === 0 ? `its first run ran on ${to}` : `no run on ${to}` };
  const before = runs.slice(0, first);
  const after = runs.slice(first);
  const mover = before[before.length - 1];
  if (before.some((r) => r.builds.some((b) => b !== from))) return { problem: `a run before the move ran off ${from}` };
  if (after.some((r) => r.builds.some((b) => b !== to))) return { problem: `a run after the move ran off ${to}` };
  if (mover?.continuedAt === undefined) return { problem: 'the last run before the move did not continue as new' };
  if (mover.openChildrenAtMove !== 0) return { problem: `${mover.openChildrenAtMove} step(s) still open at the move` };
  return { at: mover.continuedAt };
}
