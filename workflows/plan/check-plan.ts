/**
 * Plan checking (DESIGN §3, §4.1, §4.7): the planner's reply, a human's edit or a replan is
 * parsed, checked against the plan schema and the DAG rules, and either accepted as a `Plan` or
 * rejected with every error found, each naming where and why, so the planner can be told exactly
 * what to fix. Pure: no Temporal, no Node built-ins; runs inside the workflow sandbox.
 */
import type { z } from 'zod';
import { issueLines } from '../issue-lines';
import { MAX_PLAN_STEPS, planSchema, remainingPlanSchema } from './plan-schema';
import type { Plan, PlanCheck } from './plan-types';

/** The error for an empty reply. */
export const NO_CONTENT_ERROR = 'the reply has no content; answer with the plan as a JSON object';

/** The parts of a plan the DAG rules look at. */
interface PlanGraph {
  steps: { id: string; depends_on: string[] }[];
  replan: string[];
}

type JsonReply = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Checks a value (parsed JSON) against the plan schema and the DAG rules.
 *
 * Errors are `path: message` for the schema (`steps.1.depends_on: expected array, received
 * string`), then the DAG rules, each naming the step: `step "s2": duplicate id`, `step "s3":
 * depends on unknown step "x"`, `step "s1": depends on itself`, `cycle: s1 → s2 → s1` (each
 * arrow reads "depends on"; one cycle per group of steps that depend on each other), and
 * `replan: unknown step "x"`. When the shape is wrong the DAG rules still run on the readable
 * part, so one correction round can fix everything.
 */
export function checkPlanValue(value: unknown): PlanCheck {
  const parsed = planSchema.safeParse(value);
  if (parsed.success) {
    const plan: Plan = parsed.data;
    const errors = checkGraph(plan);
    return errors.length === 0 ? { ok: true, plan } : { ok: false, errors };
  }
  const graph = readGraphLoosely(value);
  return { ok: false, errors: [...formatIssues(parsed.error), ...(graph ? checkGraph(graph) : [])] };
}

/**
 * Parses the model's message content as a plan, tolerantly: raw JSON, JSON in a ``` or ```json
 * fence, or JSON wrapped in prose (the outermost `{...}` is taken). Then {@link checkPlanValue}.
 */
export function parsePlanOutput(content: string | null): PlanCheck {
  const reply = parseJsonReply(content);
  return reply.ok ? checkPlanValue(reply.value) : { ok: false, errors: [reply.error] };
}

/**
 * Merges a replan into the current plan (DESIGN §4.7). `kept` are ids of settled steps, which
 * stay as they are, in their current order; `remaining` is the planner's JSON plan whose steps
 * replace every other step. `remaining` may leave out `task` and `language` (the current ones
 * are kept) and may have no steps; it may not reuse a kept id. The merged plan then gets the
 * full {@link checkPlanValue} check.
 */
export function mergeReplan(current: Plan, kept: string[], remaining: unknown): PlanCheck {
  const parsed = remainingPlanSchema.safeParse(remaining);
  if (!parsed.success) return { ok: false, errors: formatIssues(parsed.error) };
  const next = parsed.data;
  const keptIds = new Set(kept);
  const currentIds = new Set(current.steps.map((step) => step.id));
  const errors = [
    ...unique(kept.filter((id) => !currentIds.has(id))).map((id) => `kept step "${id}": not in the current plan`),
    ...unique(next.steps.map((step) => step.id).filter((id) => keptIds.has(id))).map(
      (id) => `step "${id}": this id belongs to a step that is already done and kept; give new steps new ids`,
    ),
  ];
  const check = checkPlanValue({
    task: next.task?.trim() ? next.task : current.task,
    language: next.language?.trim() ? next.language : current.language,
    steps: [...current.steps.filter((step) => keptIds.has(step.id)), ...next.steps.filter((s) => !keptIds.has(s.id))],
    replan: next.replan,
  });
  if (errors.length === 0) return check;
  return { ok: false, errors: [...errors, ...(check.ok ? [] : check.errors)] };
}

/** Parses the replanner's content tolerantly (like {@link parsePlanOutput}), then {@link mergeReplan}. */
export function parseReplanOutput(current: Plan, kept: string[], content: string | null): PlanCheck {
  const reply = parseJsonReply(content);
  return reply.ok ? mergeReplan(current, kept, reply.value) : { ok: false, errors: [reply.error] };
}

/** Every DAG rule, in a stable order: duplicates, dependencies, cycles, replan. */
function checkGraph(graph: PlanGraph): string[] {
  return [...duplicateIdErrors(graph), ...dependencyErrors(graph), ...cycleErrors(graph), ...replanErrors(graph)];
}

function duplicateIdErrors(graph: PlanGraph): string[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const { id } of graph.steps) {
    if (seen.has(id)) duplicates.push(id);
    seen.add(id);
  }
  return unique(duplicates).map((id) => `step "${id}": duplicate id`);
}

function dependencyErrors(graph: PlanGraph): string[] {
  const ids = new Set(graph.steps.map((step) => step.id));
  return graph.steps.flatMap((step) =>
    unique(step.depends_on).flatMap((dep) => {
      if (dep === step.id) return [`step "${step.id}": depends on itself`];
      return ids.has(dep) ? [] : [`step "${step.id}": depends on unknown step "${dep}"`];
    }),
  );
}

function replanErrors(graph: PlanGraph): string[] {
  const ids = new Set(graph.steps.map((step) => step.id));
  return unique(graph.replan.filter((id) => !ids.has(id))).map((id) => `replan: unknown step "${id}"`);
}

/**
 * One error per strongly connected group of steps: the shortest cycle through the group's first
 * step in plan order. Self-dependencies are left to {@link dependencyErrors}.
 */
function cycleErrors(graph: PlanGraph): string[] {
  const deps = dependencyMap(graph);
  const reach = new Map([...deps.keys()].map((id) => [id, reachableFrom(id, deps)]));
  const reported = new Set<string>();
  const errors: string[] = [];
  for (const id of deps.keys()) {
    if (reported.has(id) || !reach.get(id)?.has(id)) continue;
    const group = new Set([...deps.keys()].filter((other) => reach.get(id)?.has(other) && reach.get(other)?.has(id)));
    group.forEach((member) => reported.add(member));
    errors.push(`cycle: ${shortestCycle(id, deps, group).join(' → ')}`);
  }
  return errors;
}

/** Known, non-self dependencies per id, ids in plan order; duplicate ids merge their deps. */
function dependencyMap(graph: PlanGraph): Map<string, string[]> {
  const ids = new Set(graph.steps.map((step) => step.id));
  const deps = new Map<string, string[]>();
  for (const step of graph.steps) {
    const known = step.depends_on.filter((dep) => dep !== step.id && ids.has(dep));
    deps.set(step.id, unique([...(deps.get(step.id) ?? []), ...known]));
  }
  return deps;
}

/** Ids reachable from `start` through one or more dependency edges. */
function reachableFrom(start: string, deps: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const queue = [...(deps.get(start) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(deps.get(next) ?? []));
  }
  return seen;
}

/** Breadth-first search inside `group` for the shortest path from `start` back to itself. */
function shortestCycle(start: string, deps: Map<string, string[]>, group: Set<string>): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const dep of deps.get(node) ?? []) {
      if (dep === start) return [...pathTo(node, start, parent), start];
      if (!group.has(dep) || parent.has(dep)) continue;
      parent.set(dep, node);
      queue.push(dep);
    }
  }
  return [start, start]; // unreachable: `start` is on a cycle inside `group`
}

/** The path `start → … → node` recorded in `parent` by {@link shortestCycle}. */
function pathTo(node: string, start: string, parent: Map<string, string>): string[] {
  const path = [node];
  for (let at = node; at !== start;) {
    const previous = parent.get(at);
    if (previous === undefined) break;
    path.unshift(previous);
    at = previous;
  }
  return path;
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

/** Parses reply text as JSON, trying the whole text, a fenced block, then the outermost `{...}`. */
function parseJsonReply(content: string | null): JsonReply {
  const text = content?.trim() ?? '';
  if (text === '') return { ok: false, error: NO_CONTENT_ERROR };
  const fenced = /```[\w-]*[^\S\n]*\n?([\s\S]*?)```/.exec(text)?.[1];
  const candidates = unique([text, ...(fenced === undefined ? [] : [outermostObject(fenced)]), outermostObject(text)]);
  let error = '';
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) as unknown };
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
  }
  return { ok: false, error: `the reply is not valid JSON: ${error}` };
}

/** The text from the first `{` to the last `}`, or the trimmed text when it has no such pair. */
function outermostObject(text: string): string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : text.trim();
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

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
