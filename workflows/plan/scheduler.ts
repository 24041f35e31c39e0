/**
 * DAG scheduling: which steps start now, which are skipped after a failure,
 * and when a plan is done. A step starts the moment all its dependencies completed — not level
 * by level — up to a cap, longest remaining path first. Pure functions over a checked `Plan` and
 * a JSON status record (a step missing from it is `pending`); no Temporal, no Node built-ins.
 */
import type { Plan, StepStatus } from './plan-types';
import { planToGraph, planWalk } from '../graph/graph-from-plan';
import { readyNodes } from '../graph/graph-walk';

/** Statuses after which a step's dependents can never run (the `continue` policy skips them). */
const BLOCKING: ReadonlySet<StepStatus> = new Set<StepStatus>(['failed', 'skipped', 'cancelled']);

/** Statuses that occupy a parallel slot. */
const ACTIVE: ReadonlySet<StepStatus> = new Set<StepStatus>(['running', 'waiting']);

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
 * Ids of the steps to start now: `pending` steps whose dependencies all `completed`, at most
 * `maxParallel` minus the `running` and `waiting` ones (`maxParallel` ≤ 0, NaN or Infinity means
 * no cap), longest remaining path first, ties in plan order.
 */
export function selectStepsToStart(plan: Plan, statuses: Record<string, StepStatus>, maxParallel: number): string[] {
  const lengths = pathLengths(plan);
  // Readiness is the graph walk's (the plan as a graph of `join: all` nodes): one schedule for plans and graphs.
  const graph = planToGraph(plan);
  const joined = new Set(readyNodes(planWalk(graph, statuses), graph));
  const ready = plan.steps
    .map((step, index) => ({ step, index, length: lengths.get(step.id) ?? 1 }))
    .filter(({ step }) => statusOf(statuses, step.id) === 'pending' && joined.has(step.id))
    .sort((a, b) => b.length - a.length || a.index - b.index)
    .map(({ step }) => step.id);
  const unlimited = !(maxParallel > 0) || maxParallel === Infinity;
  if (unlimited) return ready;
  const active = plan.steps.filter((step) => ACTIVE.has(statusOf(statuses, step.id))).length;
  return ready.slice(0, Math.max(0, Math.floor(maxParallel) - active));
}

/**
 * Ids of the `pending` steps that depend, directly or transitively, on a `failed`, `skipped` or
 * `cancelled` step, in plan order: under the `continue` policy they are marked `skipped`.
 */
export function stepsToSkip(plan: Plan, statuses: Record<string, StepStatus>): string[] {
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
function dependentsOf(plan: Plan): Map<string, string[]> {
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
function topologicalOrder(plan: Plan): string[] {
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
