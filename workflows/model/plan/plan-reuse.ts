/**
 * Typed reuse (docs/contracts.md#plan): a thread's task turn is given the finished steps of its
 * earlier turns (the agent input's `context.reusable`), and its plan may adopt them with `reuse:
 * [{ agentId, stepId }]` instead of doing them again. An adopted step enters the plan under its
 * `stepId`, marked `reused`, and starts completed with its earlier result: it never runs, and new
 * steps depend on it like on any finished step. Pure: runs in the workflow sandbox.
 */
import { z } from 'zod';
import type { Plan, PlanStep } from './plan-types';
import { stepIdSchema, type reuseRefSchema } from '../step-id';

/** Most earlier steps one turn is offered (the newest are kept). */
export const MAX_REUSABLE_STEPS = 50;

/** Longest result of an offered step (a thread's turn hands back results cut to this). */
export const MAX_REUSABLE_RESULT_CHARS = 4_000;

/** Longest title of an offered step. */
export const MAX_REUSABLE_TITLE_CHARS = 200;

/** The code of a plan error naming a step that cannot be reused (it reaches the planner in its correction). */
export const REUSE_UNKNOWN = 'PLAN_REUSE_UNKNOWN';

/** A finished step of an earlier turn that a plan may adopt: who ran it, its id, title and result. */
export const reusableStepSchema = z.object({
  agentId: z.string().min(1).max(300),
  stepId: stepIdSchema,
  title: z.string().max(MAX_REUSABLE_TITLE_CHARS),
  result: z.string().max(MAX_REUSABLE_RESULT_CHARS),
});
/** A finished step of an earlier turn that a plan may adopt. */
export type ReusableStep = z.infer<typeof reusableStepSchema>;

/** An earlier step named by agent and step id. */
export type ReuseRef = z.infer<typeof reuseRefSchema>;

/** The offered step `ref` names, if any. */
export function findReusable(reusable: readonly ReusableStep[], ref: ReuseRef): ReusableStep | undefined {
  return reusable.find((r) => r.agentId === ref.agentId && r.stepId === ref.stepId);
}

/** The plan step an adopted earlier step becomes. */
function adoptedStep(found: ReusableStep): PlanStep {
  return {
    id: found.stepId,
    title: found.title || found.stepId,
    description: `Done earlier (step ${found.stepId} of ${found.agentId}); its result is reused.`,
    depends_on: [],
    reused: { agentId: found.agentId, stepId: found.stepId },
  };
}

/** The error of a reference to no offered step, with what may be reused. */
function unknownRef(path: string, ref: ReuseRef, reusable: readonly ReusableStep[]): string {
  const offered = reusable.length
    ? `the steps that may be reused are ${reusable.map((r) => `{"agentId": "${r.agentId}", "stepId": "${r.stepId}"}`).join(', ')}`
    : 'no earlier steps may be reused here';
  return `${path}: ${REUSE_UNKNOWN}: no finished earlier step "${ref.stepId}" of "${ref.agentId}"; ${offered}`;
}

/**
 * The plan with its `reuse` entries adopted as steps (first, in their order) and `reuse` dropped,
 * and an error (coded {@link REUSE_UNKNOWN}) for each entry or `reused` marker naming no offered
 * step. A plan without either comes back as it is, with no errors.
 */
export function adoptReuse(plan: Plan, reusable: readonly ReusableStep[]): { plan: Plan; errors: string[] } {
  const marked = plan.steps.some((step) => step.reused !== undefined);
  if (plan.reuse === undefined && !marked) return { plan, errors: [] };
  const errors: string[] = [];
  plan.steps.forEach((step, i) => {
    if (step.reused && !findReusable(reusable, step.reused))
      errors.push(unknownRef(`steps.${i}.reused`, step.reused, reusable));
  });
  const adopted = (plan.reuse ?? []).flatMap((ref, i) => {
    const found = findReusable(reusable, ref);
    if (!found) errors.push(unknownRef(`reuse.${i}`, ref, reusable));
    return found ? [adoptedStep(found)] : [];
  });
  const { reuse: _listed, ...rest } = plan;
  return { plan: { ...rest, steps: [...adopted, ...plan.steps] }, errors };
}
