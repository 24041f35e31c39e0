/** The last resorts for a planner that cannot get a plan right: repairing its graph, salvaging a reply cut at its token limit. */
import fc from 'fast-check';
import { checkPlanValue, salvageCutPlan } from '../../workflows/model/plan/check-plan';
import { closedPrefixes } from '../../workflows/model/json-reply';
import { checkGraph } from '../../workflows/model/plan/plan-graph-rules';
import { repairGraph } from '../../workflows/model/plan/plan-graph-repair';
import type { Plan, PlanStep } from '../../workflows/model/plan/plan-types';

const step = (id: string, depends_on: string[] = []): PlanStep => ({
  id,
  title: `T ${id}`,
  description: `Do ${id}`,
  depends_on,
});
const plan = (steps: PlanStep[], replan: string[] = []): Plan => ({ task: 't', language: 'en', steps, replan });
const shape = (value: Plan) => value.steps.map((s) => [s.id, s.depends_on]);

describe('repairGraph', () => {
  test('a valid plan is returned as it is, with no repairs', () => {
    const valid = plan([step('a'), step('b', ['a']), step('c', ['a', 'b'])], ['b']);
    expect(repairGraph(valid)).toEqual({ plan: valid, repairs: [] });
  });

  test('later copies of a duplicate id are renamed, skipping ids other steps have', () => {
    const { plan: fixed, repairs } = repairGraph(plan([step('s1'), step('s1'), step('s1-2'), step('s1', ['s1'])]));
    expect(fixed.steps.map((s) => s.id)).toEqual(['s1', 's1-3', 's1-2', 's1-4']);
    // A dependency on a duplicated id means its first holder.
    expect(fixed.steps[3]?.depends_on).toEqual(['s1']);
    expect(repairs).toEqual([
      'step "s1": duplicate id, renamed to "s1-3"',
      'step "s1": duplicate id, renamed to "s1-4"',
    ]);
  });

  test('a renamed id stays within the id length limit', () => {
    const long = 'x'.repeat(40);
    const { plan: fixed } = repairGraph(plan([step(long), step(long)]));
    expect(fixed.steps[1]?.id).toBe(`${'x'.repeat(38)}-2`);
    expect(checkPlanValue(fixed).ok).toBe(true);
  });

  test('unknown and self dependencies and unknown replan ids are dropped, each named', () => {
    const { plan: fixed, repairs } = repairGraph(plan([step('a', ['a', 'zz']), step('b', ['a', 'a'])], ['b', 'qq']));
    expect(shape(fixed)).toEqual([
      ['a', []],
      ['b', ['a']],
    ]);
    expect(fixed.replan).toEqual(['b']);
    expect(repairs).toEqual([
      'step "a": dropped its dependency on itself',
      'step "a": dropped its dependency on unknown step "zz"',
      'replan: dropped unknown step "qq"',
    ]);
  });

  test('a cycle loses the dependencies that point forward in plan order, and nothing else', () => {
    // a → c → b → a is a cycle; d depends on the group from outside and keeps its edges.
    const cyclic = plan([step('a', ['c']), step('b', ['a']), step('c', ['b']), step('d', ['c', 'a'])]);
    const { plan: fixed, repairs } = repairGraph(cyclic);
    expect(shape(fixed)).toEqual([
      ['a', []],
      ['b', ['a']],
      ['c', ['b']],
      ['d', ['c', 'a']],
    ]);
    expect(repairs).toEqual(['step "a": dropped its dependency on "c", which closed a cycle']);
  });

  test('checkPlanValue offers the repair only when the shape is right', () => {
    const broken = checkPlanValue(plan([step('a', ['b']), step('a')]));
    expect(broken.ok).toBe(false);
    expect(broken.ok ? undefined : broken.repaired?.plan.steps.map((s) => s.id)).toEqual(['a', 'a-2']);
    const misshapen = checkPlanValue({ task: 't', steps: [{ id: 'a', depends_on: ['a'] }] });
    expect(misshapen.ok ? 'accepted' : misshapen.repaired).toBeUndefined();
  });
});

/** Any plan the schema accepts: ids drawn from a small pool (so duplicates are common), random edges. */
const messyPlanArb = fc
  .array(
    fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'a-2', 'e'),
      depends_on: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'a-2', 'e', 'zz'), { maxLength: 4 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .chain((steps) =>
    fc.array(fc.constantFrom('a', 'b', 'zz'), { maxLength: 3 }).map((replan) =>
      plan(
        steps.map((s) => step(s.id, s.depends_on)),
        replan,
      ),
    ),
  );

test('property: every repaired plan passes the DAG rules, keeps every step, and is left alone when valid', () => {
  fc.assert(
    fc.property(messyPlanArb, (messy) => {
      const { plan: fixed, repairs } = repairGraph(messy);
      expect(checkGraph(fixed)).toEqual([]);
      expect(checkPlanValue(fixed).ok).toBe(true);
      expect(fixed.steps.map((s) => s.title)).toEqual(messy.steps.map((s) => s.title));
      expect(repairs.length === 0).toBe(checkGraph(messy).length === 0);
      // Repairing twice changes nothing more.
      expect(repairGraph(fixed)).toEqual({ plan: fixed, repairs: [] });
    }),
  );
});

describe('closedPrefixes and salvageCutPlan: a reply cut at its token limit', () => {
  const full = JSON.stringify(plan([step('a'), step('b', ['a']), step('c', ['b'])], ['a']));

  test('every candidate is valid JSON, longest first, each ending at a complete value', () => {
    const cut = full.slice(0, full.indexOf('"c"') + 3);
    const candidates = closedPrefixes(cut);
    expect(candidates.length).toBeGreaterThan(3);
    for (const candidate of candidates) expect(() => JSON.parse(candidate) as unknown).not.toThrow();
    expect(candidates.map((c) => c.length)).toEqual([...candidates.map((c) => c.length)].sort((x, y) => y - x));
  });

  test('strings holding brackets, commas and escaped quotes do not confuse it', () => {
    const tricky = '{"task": "a, [b] {c} \\"d,\\"", "steps": [{"id": "a", "title": "x]", "descr';
    expect(closedPrefixes(tricky)[0]).toBe('{"task": "a, [b] {c} \\"d,\\"", "steps": [{"id": "a", "title": "x]"}]}');
  });

  test('a plan cut inside its third step keeps the first two, as they were', () => {
    const salvaged = salvageCutPlan(full.slice(0, full.indexOf('"c"') + 10));
    expect(salvaged).toEqual({ ok: true, plan: plan([step('a'), step('b', ['a'])]) });
  });

  test('a plan cut inside its replan list keeps every step and the complete replan ids', () => {
    const loopy = JSON.stringify(plan([step('a'), step('b', ['a'])], ['a', 'b'])).replace(/\]\}$/, ', "b", "b", "b');
    const salvaged = salvageCutPlan(loopy);
    expect(salvaged?.ok ? salvaged.plan.steps.map((s) => s.id) : salvaged).toEqual(['a', 'b']);
    expect(salvaged?.ok ? salvaged.plan.replan : salvaged).toEqual(['a', 'b', 'b', 'b']);
  });

  test('a cut plan whose complete steps break the graph comes back repairable', () => {
    const cut = JSON.stringify(plan([step('a', ['zz']), step('b', ['a']), step('c')])).replace(/"c".*$/, '"c');
    const salvaged = salvageCutPlan(cut);
    expect(salvaged?.ok).toBe(false);
    expect(salvaged?.ok === false ? salvaged.repaired?.repairs : undefined).toEqual([
      'step "a": dropped its dependency on unknown step "zz"',
    ]);
  });

  test('nothing usable: no object, or cut before the first step ends', () => {
    expect(salvageCutPlan('I will now plan')).toBeUndefined();
    expect(salvageCutPlan('{"task": "t", "steps": [{"id": "a", "ti')).toBeUndefined();
  });
});
