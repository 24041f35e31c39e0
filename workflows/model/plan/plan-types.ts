/**
 * The plan (docs/contracts.md#plan): what the planner returns as JSON and a human may edit. Pure
 * types, each the `z.infer` of its schema in plan-schema.ts (the one description).
 */
import type { z } from 'zod';
import type { planSchema, planStepSchema } from './plan-schema';
import type { stepStatusSchema } from '../state/step-run-schema';

/** One step of a plan, as its schema (plan-schema.ts) reads it: `depends_on` filled in. */
export type PlanStep = z.infer<typeof planStepSchema>;

/** A plan: steps form a DAG through `depends_on`; `replan` lists steps after which to replan. */
export type Plan = z.infer<typeof planSchema>;

/** Status of one step run (its list is `STEP_STATUSES` in model/state/step-run-schema.ts). */
export type StepStatus = z.infer<typeof stepStatusSchema>;

/** Result of checking raw planner output (or a human edit) against the plan rules. */
export type PlanCheck =
  | { ok: true; plan: Plan }
  | {
      ok: false;
      errors: string[];
      /** When only the DAG rules failed: the plan with each rule's one obvious fix (plan-graph-repair.ts). */
      repaired?: { plan: Plan; repairs: string[] };
      /** A person's edit with a key the plan has not: the path of the first (`steps.1.dependsOn`). */
      field?: string;
    };
