/**
 * The last resort for a planner that keeps breaking the DAG rules (weak or small models do: the
 * plan's shape is enforced by structured output, its graph cannot be): the one obvious fix per
 * rule, each named so the timeline can say what was changed. Later copies of a duplicate id get
 * a fresh id; dependencies on unknown steps or on the step itself are dropped; inside each group
 * of steps that depend on each other, dependencies on a step at or after the dependent one in
 * plan order are dropped (what is left points backwards only, so no cycle stays); unknown
 * `replan` ids are dropped. Pure.
 */
import { reachableFrom, unique } from '../reach';
import { MAX_STEP_ID_LENGTH } from '../step-id';
import type { Plan, PlanStep } from './plan-types';

/** A plan the DAG rules accept, and what was changed to get it. */
export interface RepairedPlan {
  plan: Plan;
  repairs: string[];
}

/** Repairs `plan` (which passed the schema) so that `checkGraph` finds nothing. */
export function repairGraph(plan: Plan): RepairedPlan {
  const repairs: string[] = [];
  const renamed = renameDuplicates(plan.steps, repairs);
  const known = dropUnknownDependencies(renamed, repairs);
  const acyclic = breakCycles(known, repairs);
  const ids = new Set(acyclic.map((step) => step.id));
  const replan = unique(plan.replan).filter((id) => {
    if (ids.has(id)) return true;
    repairs.push(`replan: dropped unknown step "${id}"`);
    return false;
  });
  return { plan: { ...plan, steps: acyclic, replan }, repairs };
}

/** Later copies of an id become `<id>-2`, `<id>-3`…, never colliding with another step's id. */
function renameDuplicates(steps: PlanStep[], repairs: string[]): PlanStep[] {
  const taken = new Set(steps.map((step) => step.id));
  const seen = new Set<string>();
  return steps.map((step) => {
    if (!seen.has(step.id)) {
      seen.add(step.id);
      return step;
    }
    let id = step.id;
    for (let n = 2; taken.has(id); n += 1) {
      const suffix = `-${n}`;
      id = `${step.id.slice(0, MAX_STEP_ID_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(id);
    seen.add(id);
    repairs.push(`step "${step.id}": duplicate id, renamed to "${id}"`);
    return { ...step, id };
  });
}

function dropUnknownDependencies(steps: PlanStep[], repairs: string[]): PlanStep[] {
  const ids = new Set(steps.map((step) => step.id));
  return steps.map((step) => {
    const depends_on = unique(step.depends_on).filter((dep) => {
      if (dep === step.id) repairs.push(`step "${step.id}": dropped its dependency on itself`);
      else if (!ids.has(dep)) repairs.push(`step "${step.id}": dropped its dependency on unknown step "${dep}"`);
      else return true;
      return false;
    });
    return depends_on.length === step.depends_on.length ? step : { ...step, depends_on };
  });
}

/** Ids are unique and every dependency is known here. */
function breakCycles(steps: PlanStep[], repairs: string[]): PlanStep[] {
  const order = new Map(steps.map((step, index) => [step.id, index]));
  const deps = new Map(steps.map((step) => [step.id, step.depends_on]));
  const reach = new Map(steps.map((step) => [step.id, reachableFrom(step.id, deps)]));
  const sameGroup = (a: string, b: string) => (reach.get(a)?.has(b) ?? false) && (reach.get(b)?.has(a) ?? false);
  return steps.map((step, index) => {
    const depends_on = step.depends_on.filter((dep) => {
      if (!sameGroup(step.id, dep) || (order.get(dep) ?? 0) < index) return true;
      repairs.push(`step "${step.id}": dropped its dependency on "${dep}", which closed a cycle`);
      return false;
    });
    return depends_on.length === step.depends_on.length ? step : { ...step, depends_on };
  });
}
