/**
 * The latency budget as `npm run bench` prints it: Cairn and the lean baseline side by side,
 * each category in ms per run and per model call, then the model's latency, the overhead and
 * the share of the overhead the categories account for. Pure, so it is unit-tested.
 */
import { BUDGET_CATEGORIES, overheadShare, UNATTRIBUTED, type Budget } from './latency-budget';

const ALL_CATEGORIES: (keyof Budget['byCategory'])[] = [...BUDGET_CATEGORIES, UNATTRIBUTED];

/** The mean of several runs' budgets (category by category, counts too). */
export function meanBudget(budgets: Budget[]): Budget {
  const n = budgets.length;
  if (n === 0) throw new Error('no budgets to average');
  const mean = (pick: (b: Budget) => number) => budgets.reduce((sum, b) => sum + pick(b), 0) / n;
  const byCategory = Object.fromEntries(
    ALL_CATEGORIES.map((c) => [c, mean((b) => b.byCategory[c])]),
  ) as Budget['byCategory'];
  return {
    totalMs: mean((b) => b.totalMs),
    byCategory,
    modelCalls: mean((b) => b.modelCalls),
    workflowTasks: mean((b) => b.workflowTasks),
    activities: mean((b) => b.activities),
    childWorkflows: mean((b) => b.childWorkflows),
    signals: mean((b) => b.signals),
  };
}

export interface BudgetTable {
  header: string[];
  rows: string[][];
  /** Share of each side's overhead the categories account for (0..1). */
  accounted: { cairn: number; lean: number };
}

const perCall = (ms: number, calls: number) => (calls > 0 ? (ms / calls).toFixed(1) : 'n/a');

/** Cairn beside the lean baseline, for runs whose model answered after `latencyMs`. */
export function budgetTable(cairn: Budget, lean: Budget, latencyMs: number): BudgetTable {
  const c = overheadShare(cairn, latencyMs);
  const l = overheadShare(lean, latencyMs);
  const row = (label: string, cairnMs: number, leanMs: number): string[] => [
    label,
    cairnMs.toFixed(0),
    perCall(cairnMs, cairn.modelCalls),
    leanMs.toFixed(0),
    perCall(leanMs, lean.modelCalls),
  ];
  const modelRunning = 'model call (activity running)';
  const rows: string[][] = [
    row('model latency (the fake)', c.modelMs, l.modelMs),
    row(
      'model activity beyond the latency',
      cairn.byCategory[modelRunning] - c.modelMs,
      lean.byCategory[modelRunning] - l.modelMs,
    ),
    ...BUDGET_CATEGORIES.filter((k) => k !== modelRunning).map((k) => row(k, cairn.byCategory[k], lean.byCategory[k])),
    row(UNATTRIBUTED, cairn.byCategory[UNATTRIBUTED], lean.byCategory[UNATTRIBUTED]),
    row('overhead (total − model latency)', c.overheadMs, l.overheadMs),
    row('total (client start → result)', cairn.totalMs, lean.totalMs),
    ['overhead accounted for', `${(c.accounted * 100).toFixed(1)} %`, '', `${(l.accounted * 100).toFixed(1)} %`, ''],
    [
      'workflow tasks / activities / children / signals per run',
      `${cairn.workflowTasks.toFixed(0)} / ${cairn.activities.toFixed(0)} / ${cairn.childWorkflows.toFixed(0)} / ${cairn.signals.toFixed(0)}`,
      '',
      `${lean.workflowTasks.toFixed(0)} / ${lean.activities.toFixed(0)} / ${lean.childWorkflows.toFixed(0)} / ${lean.signals.toFixed(0)}`,
      '',
    ],
  ];
  return {
    header: ['Where the time goes', 'Cairn ms / run', 'Cairn ms / call', 'lean ms / run', 'lean ms / call'],
    rows,
    accounted: { cairn: c.accounted, lean: l.accounted },
  };
}
