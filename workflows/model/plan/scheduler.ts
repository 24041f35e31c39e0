/**
 * DAG scheduling, the plan's part of it: the order ready steps start in (longest remaining path
 * first), which steps are skipped after a failure, and when a plan is done. Which steps are ready
 * is the graph walk's (plan-as-graph.ts: a step starts the moment all its dependencies completed,
 * not level by level). Pure functions over a checked `Plan` and a JSON status record (a step
 * missing from it is `pending`); no Temporal, no Node built-ins.
 */
import type { Plan, StepStatus } from './plan-types';

/** The steps of a plan and what each depends on: all that skipping and ordering read. */
export interface Dependencies {
  steps: readonly { id: string; depends_on: readonly string[] }[];
}

/** Statuses after which a step's dependents can never run (the `continue` policy skips them). */
const BLOCKING: ReadonlySet<StepStatus> = new Set<StepStatus>(['failed', 'skipped', 'cancelled']);

/** True when a step run has ended for good: `completed`, `failed`, `skipped` or `cancelled`. */
export function isSettled(status: StepStatus): boolean {
  return status === 'completed' || BLOCKING.has(status);
}

/** True when every step of the plan is settled (a step missing from `statuses` is pending). */
export function allSettled(plan: Plan, statuses: Record<string, StepStatus>): boolean {
  return plan.steps.every((step) => isSettled(statusOf(statuses, step.id)));
}

/**
 * For each step, the number of steps on the longest path from it to a sink, following
 * dependents (a sink counts 1). Steps on a cycle, which a checked plan never has, count 1.
 */
export function remainingPathLengths(plan: Plan): Record<string, number> {
  return Object.fromEntries(pathLengths(plan));
}

/**
 * The plan's order of ready steps: longest remaining path first (remainingPathLengths), ties in
 * plan order; ids not in the plan go last, in the order given.
 */
export function longestPathFirst(plan: Plan): (ids: readonly string[]) => string[] {
  const lengths = pathLengths(plan);
  const index = new Map(plan.steps.map((step, i) => [step.id, i]));
  const rank = (id: string) => index.get(id) ?? plan.steps.length;
  return (ids) => [...ids].sort((a, b) => (lengths.get(b) ?? 0) - (lengths.get(a) ?? 0) || rank(a) - rank(b));
}

/**
 * Ids of the `pending` steps that depend, directly or transitively, on a `failed`, `skipped` or
 * `cancelled` step, in plan order: under the `continue` policy they are marked `skipped`.
 */
export function stepsToSkip(plan: Dependencies, statuses: Record<string, StepStatus>): string[] {
  const deps = new Map(plan.steps.map((step) => [step.id, step.depends_on]));
  const blocked = new Set<string>();
  for (const id of topologicalOrder(plan)) {
    const cut = (deps.get(id) ?? []).some((dep) => BLOCKING.has(statusOf(statuses, dep)) || blocked.has(dep));
    if (cut) blocked.add(id);
  }
  return plan.steps
    .filter((step) => blocked.has(step.id) && statusOf(statuses, step.id) === 'pending')
    .map((s) => s.id);
}

/** A step's status; own properties only, so an id like `valueOf` never reads the prototype. */
function statusOf(statuses: Record<string, StepStatus>, id: string): StepStatus {
  return Object.hasOwn(statuses, id) ? (statuses[id] ?? 'pending') : 'pending';
}

/** {@link remainingPathLengths} as a map, in plan order (a map: ids never meet the prototype). */
function pathLengths(plan: Plan): Map<string, number> {
  const dependents = dependentsOf(plan);
  const lengths = new Map<string, number>();
  for (const id of topologicalOrder(plan).reverse()) {
    const below = (dependents.get(id) ?? []).map((dependent) => lengths.get(dependent) ?? 0);
    lengths.set(id, 1 + Math.max(0, ...below));
  }
  return new Map(plan.steps.map((step) => [step.id, lengths.get(step.id) ?? 1]));
}

/** Dependents of each step (the reverse of `depends_on`), unknown dependencies ignored. */
function dependentsOf(plan: Dependencies): Map<string, string[]> {
  const dependents = new Map<string, string[]>(plan.steps.map((step) => [step.id, []]));
  for (const step of plan.steps) {
    for (const dep of new Set(step.depends_on)) dependents.get(dep)?.push(step.id);
  }
  return dependents;
}

/**
 * Step ids with every dependency before its dependents (Kahn's algorithm, ties in plan order).
 * Steps on a cycle are left out; unknown dependencies are ignored.
 */
function topologicalOrder(plan: Dependencies): string[] {
  const dependents = dependentsOf(plan);
  const waiting = new Map<string, number>();
  for (const step of plan.steps) {
    const known = [...new Set(step.depends_on)].filter((dep) => dependents.has(dep));
    waiting.set(step.id, known.length);
  }
  const order = plan.steps.filter((step) => waiting.get(step.id) === 0).map((step) => step.id);
  for (let i = 0; i < order.length; i++) {
    for (const dependent of dependents.get(order[i] ?? '') ?? []) {
      const left = (waiting.get(dependent) ?? 0) - 1;
      waiting.set(dependent, left);
      if (left === 0) order.push(dependent);
    }
  }
  return order;
}
