/**
 * Plan checking (docs/architecture/planning.md): the planner's reply, a human's edit or a replan is
 * parsed, checked against the plan schema and the DAG rules, and either accepted as a `Plan` or
 * rejected with every error found, each naming where and why, so the planner can be told exactly
 * what to fix. Pure: no Temporal, no Node built-ins; runs inside the workflow sandbox.
 */
import type { z } from 'zod';
import { issueLines } from '../../base/issue-lines';
import { MAX_PLAN_STEPS, planSchema, planStepSchema, remainingPlanSchema } from './plan-schema';
import type { Plan, PlanCheck } from './plan-types';
import { unique } from '../reach';
import { checkGraph, type PlanGraph } from './plan-graph-rules';
import { closedPrefixes, parseJsonReply } from '../json-reply';
import { repairGraph } from './plan-graph-repair';
import { adoptReuse, type ReusableStep } from './plan-reuse';

/**
 * Checks a value (parsed JSON) against the plan schema and the DAG rules.
 *
 * Errors are `path: message` for the schema (`steps.1.depends_on: expected array, received
 * string`), then the DAG rules, each naming the step: `step "s2": duplicate id`, `step "s3":
 * depends on unknown step "x"`, `step "s1": depends on itself`, `cycle: s1 → s2 → s1` (each
 * arrow reads "depends on"; one cycle per group of steps that depend on each other), and
 * `replan: unknown step "x"`. When the shape is wrong the DAG rules still run on the readable
 * part, so one correction round can fix everything. Steps the plan adopts (`reuse`, plan-reuse.ts)
 * must be among `reusable`; they join the steps before the DAG rules run.
 */
export function checkPlanValue(value: unknown, reusable: readonly ReusableStep[] = []): PlanCheck {
  const parsed = planSchema.safeParse(value);
  if (parsed.success) {
    const adopted = adoptReuse(parsed.data, reusable);
    const plan: Plan = adopted.plan;
    const errors = [...adopted.errors, ...checkGraph(plan)];
    if (errors.length === 0) return { ok: true, plan };
    // A wrong reuse is the planner's to fix: no repair guesses which step it meant.
    return adopted.errors.length ? { ok: false, errors } : { ok: false, errors, repaired: repairGraph(plan) };
  }
  const graph = readGraphLoosely(value);
  return { ok: false, errors: [...formatIssues(parsed.error), ...(graph ? checkGraph(graph) : [])] };
}

/**
 * Checks a plan a person edited (a `plan.check` answer's `edit`): as {@link checkPlanValue}, and
 * besides, a key the plan or one of its steps does not have is refused by name. A model's plan
 * may carry extra keys, which are dropped; a person who wrote `dependsOn` meant a dependency, and
 * dropping it would run a plan other than the one they confirmed. `field` is the path of the first
 * unknown key (`steps.1.dependsOn`); every other rule is reported alongside.
 */
export function checkEditedPlanValue(value: unknown, reusable: readonly ReusableStep[] = []): PlanCheck {
  const unknown = unknownPlanKeys(value);
  const check = checkPlanValue(value, reusable);
  if (unknown.length === 0) return check;
  const lines = unknown.map(({ path, owner }) => `${path}: unknown key; ${owner}`);
  return { ok: false, errors: [...lines, ...(check.ok ? [] : check.errors)], field: unknown[0]?.path ?? '' };
}

const PLAN_KEYS = Object.keys(planSchema.shape);
const STEP_KEYS = Object.keys(planStepSchema.shape);

/** The keys of a plan value (and of its steps) that the plan schema does not have, with their paths. */
function unknownPlanKeys(value: unknown): { path: string; owner: string }[] {
  if (!isRecord(value)) return [];
  const planOwner = `a plan's keys are ${PLAN_KEYS.join(', ')}`;
  const stepOwner = `a step's keys are ${STEP_KEYS.join(', ')}`;
  const found = Object.keys(value)
    .filter((key) => !PLAN_KEYS.includes(key))
    .map((key) => ({ path: key, owner: planOwner }));
  if (!Array.isArray(value.steps) || value.steps.length > MAX_PLAN_STEPS) return found;
  value.steps.forEach((step: unknown, index) => {
    if (!isRecord(step)) return;
    for (const key of Object.keys(step)) {
      if (!STEP_KEYS.includes(key)) found.push({ path: `steps.${index}.${key}`, owner: stepOwner });
    }
  });
  return found;
}

/**
 * Parses the model's message content as a plan, tolerantly: raw JSON, JSON in a ``` or ```json
 * fence, or JSON wrapped in prose (the outermost `{...}` is taken). Then {@link checkPlanValue}.
 */
export function parsePlanOutput(content: string | null, reusable: readonly ReusableStep[] = []): PlanCheck {
  const reply = parseJsonReply(content);
  return reply.ok ? checkPlanValue(reply.value, reusable) : { ok: false, errors: [reply.error] };
}

/**
 * The complete steps of a plan reply cut at its token limit, for when the planner cannot stop
 * being cut: the longest closed prefix ({@link closedPrefixes}) that `check` (the planner's or
 * the replanner's) accepts, or that only breaks the DAG rules (then `ok: false` with
 * `repaired`). `undefined` when no prefix holds a usable plan.
 */
export function salvageCutPlan(
  content: string | null,
  check: (content: string) => PlanCheck = parsePlanOutput,
): PlanCheck | undefined {
  for (const candidate of closedPrefixes(content)) {
    const checked = check(candidate);
    if (checked.ok || checked.repaired) return checked;
  }
  return undefined;
}

/**
 * Merges a replan into the current plan. `kept` are ids of settled steps, which
 * stay as they are, in their current order; `remaining` is the planner's JSON plan whose steps
 * replace every other step. `remaining` may leave out `task` and `language` (the current ones
 * are kept) and may have no steps. A step that reuses a kept id is refused — unless
 * `keptIdsRepeat` is `'drop'`: weak models repeat the finished steps in their replan, and that
 * must not fail an agent whose work is done, so such a step is read as "the kept step" and left
 * out (the kept step stays as it ran). The merged plan then gets the full {@link checkPlanValue} check.
 */
export function mergeReplan(
  current: Plan,
  kept: string[],
  remaining: unknown,
  keptIdsRepeat: 'refuse' | 'drop' = 'refuse',
  reusable: readonly ReusableStep[] = [],
): PlanCheck {
  const parsed = remainingPlanSchema.safeParse(remaining);
  if (!parsed.success) return { ok: false, errors: formatIssues(parsed.error) };
  const next = parsed.data;
  const keptIds = new Set(kept);
  const currentIds = new Set(current.steps.map((step) => step.id));
  const errors = [
    ...unique(kept.filter((id) => !currentIds.has(id))).map((id) => `kept step "${id}": not in the current plan`),
    ...(keptIdsRepeat === 'drop'
      ? []
      : unique(next.steps.map((step) => step.id).filter((id) => keptIds.has(id))).map(
          (id) => `step "${id}": this id belongs to a step that is already done and kept; give new steps new ids`,
        )),
  ];
  const check = checkPlanValue(
    {
      task: next.task?.trim() ? next.task : current.task,
      language: next.language?.trim() ? next.language : current.language,
      steps: [...current.steps.filter((step) => keptIds.has(step.id)), ...next.steps.filter((s) => !keptIds.has(s.id))],
      replan: next.replan,
      ...(next.reuse ? { reuse: next.reuse } : {}),
    },
    reusable,
  );
  if (errors.length === 0) return check;
  // Not repairable: the errors above are about the kept steps, which no repair may touch.
  return { ok: false, errors: [...errors, ...(check.ok ? [] : check.errors)] };
}

/** Parses the replanner's content tolerantly (like {@link parsePlanOutput}), then {@link mergeReplan}. */
export function parseReplanOutput(
  current: Plan,
  kept: string[],
  content: string | null,
  keptIdsRepeat: 'refuse' | 'drop' = 'refuse',
  reusable: readonly ReusableStep[] = [],
): PlanCheck {
  const reply = parseJsonReply(content);
  return reply.ok
    ? mergeReplan(current, kept, reply.value, keptIdsRepeat, reusable)
    : { ok: false, errors: [reply.error] };
}

/**
 * The ids and dependencies of a value that failed the schema, read as far as they are readable,
 * so the DAG rules can report alongside the schema errors. Oversized step lists are not read.
 */
function readGraphLoosely(value: unknown): PlanGraph | undefined {
  if (!isRecord(value) || !Array.isArray(value.steps) || value.steps.length > MAX_PLAN_STEPS) return undefined;
  const steps = value.steps.flatMap((step: unknown) =>
    isRecord(step) && typeof step.id === 'string' && step.id !== ''
      ? [{ id: step.id, depends_on: stringsIn(step.depends_on) }]
      : [],
  );
  return { steps, replan: stringsIn(value.replan) };
}

/** zod issues as `path: message`, without zod's generic "Invalid input: " prefix. */
function formatIssues(error: z.ZodError): string[] {
  return issueLines(error, 'plan').map((line) => line.replace(': Invalid input: ', ': '));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringsIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
