/**
 * The benchmark's pure computations: the latency budget of an agent run from its histories
 * (bench/latency-budget.ts, bench/budget-table.ts), the reduction of proto history events
 * (bench/budget-events.ts) and CPU time from /proc/<pid>/stat (bench/proc-cpu.ts). Real
 * recorded data where there is some: /proc lines of a Temporal dev server and a shell, and
 * the histories of one 10-step Cairn agent and one lean-baseline agent recorded by the bench.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import Long from 'long';
import { budgetEvent } from '../../bench/budget-events';
import { budgetTable, meanBudget } from '../../bench/budget-table';
import {
  BUDGET_CATEGORIES,
  latencyBudget,
  overheadShare,
  UNATTRIBUTED,
  type BudgetEvent,
  type BudgetInput,
} from '../../bench/latency-budget';
import { cpuSeconds, parseProcStat } from '../../bench/proc-cpu';

const { EventType } = temporal.api.enums.v1;

describe('parseProcStat and cpuSeconds', () => {
  // Recorded on the bench machine: the Temporal CLI dev server, and a bash shell.
  const server =
    '9831 (temporal) S 9546 15857 31706 0 -1 4194560 21581 0 0 0 115 27 0 0 20 0 8 0 2378546 1519382528 39903 ' +
    '18446744073709551615 4194304 74160785 140728219155056 0 0 0 0 0 2143420159 0 0 0 17 0 0 0 0 0 0 158699520 ' +
    '160520512 812974080 140728219161308 140728219161927 140728219161927 140728219164625 0';
  const shell =
    '31715 (bash) S 31707 31715 31715 0 -1 4194560 11831 6323176 0 14 5 13 59386 6934 20 0 1 0 2139460 5345280 1021 ' +
    '18446744073709551615 94362159513600 94362160303005 140736190300880 0 0 0 65536 4 1132560123 1 0 0 17 0 0 0 0 0 0 ' +
    '94362160536304 94362160584548 94362799972352 140736190303070 140736190303085 140736190303085 140736190304234 0';

  test('utime and stime are fields 14 and 15; children’s times (16, 17) are not counted', () => {
    expect(parseProcStat(server)).toEqual({ utime: 115, stime: 27 });
    expect(parseProcStat(shell)).toEqual({ utime: 5, stime: 13 });
  });

  test('a command name with spaces and parentheses does not shift the fields', () => {
    const odd = server.replace('(temporal)', '(a) b (c d)');
    expect(parseProcStat(odd)).toEqual({ utime: 115, stime: 27 });
  });

  test('a line that is not a stat line is refused', () => {
    expect(() => parseProcStat('no parenthesis here')).toThrow(/not a \/proc/);
    expect(() => parseProcStat('1 (x) S 0')).toThrow(/no utime/);
  });

  test('the delta of user + system ticks, in seconds', () => {
    expect(cpuSeconds({ utime: 115, stime: 27 }, { utime: 415, stime: 127 }, 100)).toBeCloseTo(4);
    expect(cpuSeconds({ utime: 0, stime: 0 }, { utime: 250, stime: 0 }, 250)).toBe(1);
  });
});

/** A history event at `time` ms. */
const ev = (eventId: number, time: number, type: string, extra: Partial<BudgetEvent> = {}): BudgetEvent => ({
  eventId,
  time,
  type: `EVENT_TYPE_${type}`,
  ...extra,
});

describe('latencyBudget', () => {
  // One workflow: a workflow task, one model call, a workflow task, completion.
  const lean: BudgetInput = {
    rootWorkflowId: 'w',
    clientStart: 990,
    clientDone: 1400,
    modelActivities: ['callModel'],
    histories: [
      {
        workflowId: 'w',
        events: [
          ev(1, 1000, 'WORKFLOW_EXECUTION_STARTED'),
          ev(2, 1000, 'WORKFLOW_TASK_SCHEDULED'),
          ev(3, 1010, 'WORKFLOW_TASK_STARTED', { scheduledEventId: 2 }),
          ev(4, 1030, 'WORKFLOW_TASK_COMPLETED', { scheduledEventId: 2 }),
          ev(5, 1030, 'ACTIVITY_TASK_SCHEDULED', { name: 'callModel' }),
          ev(6, 1035, 'ACTIVITY_TASK_STARTED', { scheduledEventId: 5 }),
          ev(7, 1250, 'ACTIVITY_TASK_COMPLETED', { scheduledEventId: 5 }),
          ev(8, 1250, 'WORKFLOW_TASK_SCHEDULED'),
          ev(9, 1260, 'WORKFLOW_TASK_STARTED', { scheduledEventId: 8 }),
          ev(10, 1280, 'WORKFLOW_TASK_COMPLETED', { scheduledEventId: 8 }),
          ev(11, 1280, 'WORKFLOW_EXECUTION_COMPLETED'),
        ],
      },
    ],
  };

  test('each moment goes to what the events say happened then; nothing left over', () => {
    const budget = latencyBudget(lean);
    expect(budget.totalMs).toBe(410);
    expect(budget.byCategory).toMatchObject({
      'client start (call → workflow started)': 10,
      'workflow task matching (scheduled → started)': 20,
      'workflow task on the worker (started → completed)': 40,
      'activity matching (scheduled → started)': 5,
      'model call (activity running)': 215,
      'client result (workflow closed → client told)': 120,
      [UNATTRIBUTED]: 0,
    });
    expect(budget).toMatchObject({ modelCalls: 1, workflowTasks: 2, activities: 1, childWorkflows: 0 });
  });

  test('overlaps go to the most specific category; gaps are unattributed', () => {
    const input: BudgetInput = {
      ...lean,
      clientDone: 1280,
      histories: [
        {
          workflowId: 'w',
          events: [
            ...(lean.histories[0]?.events ?? []).filter((e) => e.eventId <= 7),
            // A workflow task running while the model call is in flight (say, a signal).
            ev(12, 1100, 'WORKFLOW_TASK_SCHEDULED'),
            ev(13, 1100, 'WORKFLOW_TASK_STARTED', { scheduledEventId: 12 }),
            ev(14, 1150, 'WORKFLOW_TASK_COMPLETED', { scheduledEventId: 12 }),
            ev(15, 1280, 'WORKFLOW_EXECUTION_COMPLETED'),
          ],
        },
      ],
    };
    const budget = latencyBudget(input);
    expect(budget.byCategory['model call (activity running)']).toBe(215);
    expect(budget.byCategory['workflow task on the worker (started → completed)']).toBe(20);
    // 1250 → 1280: the workflow closed, but no event says what the time was spent on.
    expect(budget.byCategory[UNATTRIBUTED]).toBe(30);
    const sum = Object.values(budget.byCategory).reduce((a, b) => a + b, 0);
    expect(sum).toBe(budget.totalMs);
  });

  test('a child: its start and its completion reaching the parent', () => {
    const budget = latencyBudget({
      rootWorkflowId: 'p',
      clientStart: 1000,
      clientDone: 1100,
      modelActivities: [],
      histories: [
        {
          workflowId: 'p',
          events: [
            ev(1, 1000, 'WORKFLOW_EXECUTION_STARTED'),
            ev(5, 1010, 'START_CHILD_WORKFLOW_EXECUTION_INITIATED', { name: 'c' }),
            ev(6, 1020, 'CHILD_WORKFLOW_EXECUTION_STARTED', { initiatedEventId: 5 }),
            ev(7, 1070, 'CHILD_WORKFLOW_EXECUTION_COMPLETED', { initiatedEventId: 5 }),
            ev(8, 1100, 'WORKFLOW_EXECUTION_COMPLETED'),
          ],
        },
        {
          workflowId: 'c',
          events: [ev(1, 1015, 'WORKFLOW_EXECUTION_STARTED'), ev(2, 1060, 'WORKFLOW_EXECUTION_COMPLETED')],
        },
      ],
    });
    expect(budget.byCategory['child start (initiated → child started)']).toBe(5);
    expect(budget.byCategory['child completion (child closed → parent told)']).toBe(10);
    expect(budget.childWorkflows).toBe(1);
  });
});

describe('budgetEvent', () => {
  test('reads the time, type and links of proto events (int64 ids as Long)', () => {
    const started = budgetEvent({
      eventId: Long.fromNumber(6),
      eventTime: { seconds: Long.fromNumber(1_700_000_000), nanos: 250_000_000 },
      eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
      activityTaskStartedEventAttributes: { scheduledEventId: Long.fromNumber(5) },
    });
    expect(started).toEqual({
      eventId: 6,
      time: 1_700_000_000_250,
      type: 'EVENT_TYPE_ACTIVITY_TASK_STARTED',
      scheduledEventId: 5,
    });
    expect(
      budgetEvent({
        eventId: Long.fromNumber(5),
        eventTime: { seconds: Long.fromNumber(1), nanos: 0 },
        eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
        activityTaskScheduledEventAttributes: { activityType: { name: 'callLlm' } },
      }),
    ).toMatchObject({ name: 'callLlm' });
    expect(
      budgetEvent({
        eventId: Long.fromNumber(9),
        eventTime: { seconds: Long.fromNumber(1), nanos: 0 },
        eventType: EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
        startChildWorkflowExecutionInitiatedEventAttributes: { workflowId: 'agent/step-s1' },
      }),
    ).toMatchObject({ name: 'agent/step-s1' });
  });
});

describe('the budget of recorded runs (10 sequential steps at 200 ms per call)', () => {
  const load = (name: string): BudgetInput =>
    JSON.parse(readFileSync(join(__dirname, 'data', `bench-budget-${name}.json`), 'utf8')) as BudgetInput;
  const cairn = latencyBudget(load('cairn'));
  const lean = latencyBudget(load('lean'));

  test('every millisecond from start call to result lands in exactly one category', () => {
    for (const budget of [cairn, lean]) {
      const sum = Object.values(budget.byCategory).reduce((a, b) => a + b, 0);
      expect(sum).toBe(budget.totalMs);
    }
  });

  test('the shapes: 12 model calls each; Cairn a child per step, the baseline one workflow', () => {
    expect(cairn).toMatchObject({ modelCalls: 12, childWorkflows: 10, workflowTasks: 44, activities: 13 });
    expect(lean).toMatchObject({ modelCalls: 12, childWorkflows: 0, workflowTasks: 13, activities: 12 });
    expect(cairn.byCategory['child start (initiated → child started)']).toBeGreaterThan(0);
    expect(cairn.byCategory['model call (activity running)']).toBeGreaterThanOrEqual(12 * 200);
  });

  test('the categories account for at least 90 % of the overhead', () => {
    expect(overheadShare(cairn, 200).accounted).toBeGreaterThanOrEqual(0.9);
    expect(overheadShare(lean, 200).accounted).toBeGreaterThanOrEqual(0.9);
    expect(overheadShare(cairn, 200).modelMs).toBe(2400);
  });

  test('the table: one row per category plus the totals, side by side', () => {
    const table = budgetTable(meanBudget([cairn, cairn]), lean, 200);
    expect(table.header).toHaveLength(5);
    expect(table.rows.map((r) => r[0])).toEqual([
      'model latency (the fake)',
      'model activity beyond the latency',
      ...BUDGET_CATEGORIES.filter((c) => c !== 'model call (activity running)'),
      UNATTRIBUTED,
      'overhead (total − model latency)',
      'total (client start → result)',
      'overhead accounted for',
      'workflow tasks / activities / children / signals per run',
    ]);
    expect(table.rows.find((r) => r[0] === 'total (client start → result)')).toEqual([
      'total (client start → result)',
      cairn.totalMs.toFixed(0),
      (cairn.totalMs / 12).toFixed(1),
      lean.totalMs.toFixed(0),
      (lean.totalMs / 12).toFixed(1),
    ]);
    expect(table.accounted.cairn).toBeCloseTo(overheadShare(cairn, 200).accounted);
  });
});
