/**
 * What a replan changed, for the person who checks the revised plan: the steps it added, the
 * steps it dropped, and the steps it kept under the same id but changed (title, description,
 * dependencies or done-when). Pure.
 */
import type { Plan, PlanStep } from './plan-types';

/** The step ids a revision added, removed and changed. */
export interface PlanChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/** What turned `before` into `after`, ids in plan order. */
export function planChanges(before: Plan, after: Plan): PlanChanges {
  const old = new Map(before.steps.map((step) => [step.id, step]));
  const next = new Set(after.steps.map((step) => step.id));
  return {
    added: after.steps.filter((step) => !old.has(step.id)).map((step) => step.id),
    removed: before.steps.filter((step) => !next.has(step.id)).map((step) => step.id),
    changed: after.steps.filter((step) => differs(old.get(step.id), step)).map((step) => step.id),
  };
}

/** True when a step kept its id but not its content. */
function differs(before: PlanStep | undefined, after: PlanStep): boolean {
  if (!before) return false;
  const text = (step: PlanStep) =>
    JSON.stringify([step.title, step.description, [...step.depends_on].sort(), step.done_when ?? null]);
  return text(before) !== text(after);
}

/** The changes in words: `added s4; removed s2; changed s3` (or `no change`). */
export function describeChanges(changes: PlanChanges): string {
  const parts = (['added', 'removed', 'changed'] as const)
    .filter((key) => changes[key].length > 0)
    .map((key) => `${key} ${changes[key].join(', ')}`);
  return parts.length ? parts.join('; ') : 'no change';
}
