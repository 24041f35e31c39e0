/** Plan checking (docs/contracts.md#plan): schema and DAG errors, tolerant parsing, replan merge. */
import fc from 'fast-check';
import {
  checkEditedPlanValue,
  checkPlanValue,
  mergeReplan,
  parsePlanOutput,
} from '../../workflows/model/plan/check-plan';
import { NO_CONTENT_ERROR } from '../../workflows/model/json-reply';
import { PLAN_REPLY_BOUNDS, planJsonSchema, remainingPlanJsonSchema } from '../../workflows/model/plan/plan-schema';
import type { Plan, PlanCheck, PlanStep } from '../../workflows/model/plan/plan-types';

const step = (id: string, depends_on: string[] = [], extra: Partial<PlanStep> = {}): PlanStep => ({
  id,
  title: `Title ${id}`,
  description: `Do ${id}`,
  depends_on,
  ...extra,
});

const plan = (steps: PlanStep[], replan: string[] = []): Plan => ({ task: 'the task', language: 'en', steps, replan });

const errorsOf = (check: PlanCheck): string[] => (check.ok ? [] : check.errors);

const acceptedPlan = (check: PlanCheck): Plan => {
  if (!check.ok) throw new Error(`expected the plan to be accepted, got: ${check.errors.join('; ')}`);
  return check.plan;
};

describe('checkPlanValue: schema', () => {
  test('accepts a valid plan and fills in the defaults', () => {
    const value = { task: 't', steps: [{ id: 'a', title: 'A', description: '' }, { ...step('b', ['a']) }] };
    const checked = acceptedPlan(checkPlanValue(value));
    expect(checked).toEqual({
      task: 't',
      language: 'en',
      steps: [{ id: 'a', title: 'A', description: '', depends_on: [] }, step('b', ['a'])],
      replan: [],
    });
  });

  test('keeps done_when when given', () => {
    const checked = acceptedPlan(checkPlanValue(plan([step('a', [], { done_when: 'file exists' })])));
    expect(checked.steps[0]?.done_when).toBe('file exists');
  });

  test.each<[string, unknown, string]>([
    [
      'depends_on of the wrong type',
      { steps: [step('a'), { ...step('b'), depends_on: 'a' }] },
      'steps.1.depends_on: expected array, received string',
    ],
    ['an empty id', { steps: [step('')] }, 'steps.0.id: must not be empty'],
    ['an id of 41 characters', { steps: [step('x'.repeat(41))] }, 'steps.0.id: must be at most 40 characters'],
    ['an id with a slash', { steps: [step('a/b')] }, 'steps.0.id: must contain only letters, digits, "_" and "-"'],
    [
      'a reserved id',
      { steps: [step('__proto__')] },
      'steps.0.id: must not be a name JavaScript objects reserve, like "constructor"',
    ],
    [
      'an id like valueOf',
      { steps: [step('valueOf')] },
      'steps.0.id: must not be a name JavaScript objects reserve, like "constructor"',
    ],
    ['an empty title', { steps: [step('a', [], { title: '' })] }, 'steps.0.title: must not be empty'],
    [
      'a missing description',
      { steps: [{ id: 'a', title: 'A' }] },
      'steps.0.description: expected string, received undefined',
    ],
    ['no steps', { steps: [] }, 'steps: the plan needs at least one step'],
    [
      '51 steps',
      { steps: Array.from({ length: 51 }, (_, i) => step(`s${i}`)) },
      'steps: the plan may have at most 50 steps',
    ],
    ['a missing task', { task: undefined, steps: [step('a')] }, 'task: expected string, received undefined'],
  ])('rejects %s', (_name, change, expected) => {
    expect(errorsOf(checkPlanValue({ ...plan([]), ...(change as object) }))).toEqual([expected]);
  });

  test('rejects a value that is not an object', () => {
    expect(errorsOf(checkPlanValue(42))).toEqual(['plan: expected object, received number']);
    expect(errorsOf(checkPlanValue([]))).toEqual(['plan: expected object, received array']);
  });

  test('the id limit is inclusive: 40 characters of every allowed kind pass', () => {
    expect(checkPlanValue(plan([step(`aZ09_-${'x'.repeat(34)}`)])).ok).toBe(true);
  });
});

describe('checkPlanValue: DAG rules', () => {
  test.each<[string, Plan, string[]]>([
    ['a duplicate id', plan([step('s1'), step('s2'), step('s2'), step('s2')]), ['step "s2": duplicate id']],
    ['an unknown dependency', plan([step('s1'), step('s3', ['s1', 'x'])]), ['step "s3": depends on unknown step "x"']],
    ['a self-dependency', plan([step('s1', ['s1'])]), ['step "s1": depends on itself']],
    ['a two-step cycle', plan([step('s1', ['s2']), step('s2', ['s1'])]), ['cycle: s1 → s2 → s1']],
    ['a three-step cycle', plan([step('a', ['c']), step('b', ['a']), step('c', ['b'])]), ['cycle: a → c → b → a']],
    ['an unknown replan step', plan([step('s1')], ['s1', 'x']), ['replan: unknown step "x"']],
  ])('reports %s', (_name, value, expected) => {
    expect(errorsOf(checkPlanValue(value))).toEqual(expected);
  });

  test('reports the shortest cycle through the first step of a tangle', () => {
    const tangled = plan([step('a', ['b']), step('b', ['c', 'a']), step('c', ['a'])]);
    expect(errorsOf(checkPlanValue(tangled))).toEqual(['cycle: a → b → a']);
  });

  test('reports every error, one cycle per group, in rule order', () => {
    const broken = plan(
      [step('a', ['b']), step('b', ['a']), step('c', ['d', 'c']), step('d', ['c', 'zz']), step('a'), step('e')],
      ['nope'],
    );
    expect(errorsOf(checkPlanValue(broken))).toEqual([
      'step "a": duplicate id',
      'step "c": depends on itself',
      'step "d": depends on unknown step "zz"',
      'cycle: a → b → a',
      'cycle: c → d → c',
      'replan: unknown step "nope"',
    ]);
  });

  test('schema errors and DAG errors are reported together', () => {
    const value = {
      ...plan([step('a', ['b']), step('b', ['a'])]),
      steps: [step('a', ['b']), { ...step('b', ['a']), title: '' }],
    };
    expect(errorsOf(checkPlanValue(value))).toEqual(['steps.1.title: must not be empty', 'cycle: a → b → a']);
  });
});

describe('parsePlanOutput', () => {
  const valid = plan([step('a'), step('b', ['a'])]);
  const json = JSON.stringify(valid, null, 2);

  test.each([
    ['raw JSON', json],
    ['raw JSON with surrounding whitespace', `\n  ${json}  \n`],
    ['a ```json fence', `\`\`\`json\n${json}\n\`\`\``],
    ['a bare ``` fence', `\`\`\`\n${json}\n\`\`\``],
    ['leading and trailing prose', `Here is the plan:\n${json}\nLet me know if it works.`],
    ['prose with braces before a fence', `Plan for {task}:\n\`\`\`json\n${json}\n\`\`\`\nDone.`],
  ])('accepts %s', (_name, content) => {
    expect(acceptedPlan(parsePlanOutput(content))).toEqual(valid);
  });

  test('accepts raw JSON whose strings contain fences and braces', () => {
    const tricky = plan([step('a', [], { description: 'Run:\n```sh\necho "{}"\n```' })]);
    expect(acceptedPlan(parsePlanOutput(JSON.stringify(tricky)))).toEqual(tricky);
  });

  test.each([null, '', '   \n\t'])('rejects empty content %p', (content) => {
    expect(errorsOf(parsePlanOutput(content))).toEqual([NO_CONTENT_ERROR]);
  });

  test('rejects unparseable content with the parser message', () => {
    const errors = errorsOf(parsePlanOutput('I think we should { start, with: step one }'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^the reply is not valid JSON: \S/);
  });

  test('runs the plan rules on parsed JSON', () => {
    expect(errorsOf(parsePlanOutput('```json\n{"task":"t","steps":[]}\n```'))).toEqual([
      'steps: the plan needs at least one step',
    ]);
  });
});

describe('mergeReplan', () => {
  const current = plan([step('a'), step('b', ['a']), step('c', ['b']), step('d', ['a'])], ['b']);

  test('keeps the kept steps in order and replaces the rest', () => {
    const remaining = { task: 'new task', steps: [step('e', ['a', 'd']), step('f', ['e'])], replan: ['e'] };
    const merged = acceptedPlan(mergeReplan(current, ['d', 'a'], remaining));
    expect(merged).toEqual({
      task: 'new task',
      language: 'en',
      steps: [step('a'), step('d', ['a']), step('e', ['a', 'd']), step('f', ['e'])],
      replan: ['e'],
    });
  });

  test('falls back to the current task and language, and accepts no new steps', () => {
    const german = { ...current, task: 'Aufgabe', language: 'de' };
    const merged = acceptedPlan(mergeReplan(german, ['a'], { task: '', steps: [] }));
    expect(merged).toMatchObject({ task: 'Aufgabe', language: 'de', replan: [] });
    expect(merged.steps).toEqual([step('a')]);
  });

  test('rejects a remaining step that reuses a kept id', () => {
    const remaining = { task: 't', steps: [step('a'), step('e', ['a'])] };
    expect(errorsOf(mergeReplan(current, ['a'], remaining))).toEqual([
      'step "a": this id belongs to a step that is already done and kept; give new steps new ids',
    ]);
  });

  test("with 'drop', a remaining step that repeats a kept id is read as the kept step", () => {
    const remaining = { task: 't', steps: [{ ...step('a'), title: 'again' }, step('e', ['a'])] };
    const merged = acceptedPlan(mergeReplan(current, ['a'], remaining, 'drop'));
    expect(merged.steps).toEqual([step('a'), step('e', ['a'])]);
  });

  test("with 'drop', a replan repeating every kept step and nothing else keeps the finished plan", () => {
    const merged = acceptedPlan(mergeReplan(current, ['a', 'b'], { steps: [step('a'), step('b', ['a'])] }, 'drop'));
    expect(merged.steps.map((s) => s.id)).toEqual(['a', 'b']);
  });

  test('rejects a dependency on a replaced step, and a kept id the plan does not have', () => {
    const remaining = { task: 't', steps: [step('e', ['c'])] };
    expect(errorsOf(mergeReplan(current, ['a', 'zz'], remaining))).toEqual([
      'kept step "zz": not in the current plan',
      'step "e": depends on unknown step "c"',
    ]);
  });

  test('rejects a malformed remaining plan with path: message errors', () => {
    expect(errorsOf(mergeReplan(current, ['a'], { steps: [{ id: 'e', title: 'E' }] }))).toEqual([
      'steps.0.description: expected string, received undefined',
    ]);
  });

  test('the merged plan gets the full check, including the step limit', () => {
    const many = { steps: Array.from({ length: 49 }, (_, i) => step(`n${i}`)) };
    expect(errorsOf(mergeReplan(current, ['a', 'b'], many))).toEqual(['steps: the plan may have at most 50 steps']);
  });
});

test('planJsonSchema is derived from the schema', () => {
  const planJson = planJsonSchema();
  expect(planJson.type).toBe('object');
  expect(planJson.required).toEqual(expect.arrayContaining<string>(['task', 'steps']));
  const steps = (planJson.properties as Record<string, { items: { required: string[] } } | undefined>).steps;
  expect(steps?.items.required).toEqual(expect.arrayContaining<string>(['id', 'title', 'description']));
  expect(JSON.stringify(steps)).toContain('^[A-Za-z0-9_-]+$');
});

test('the reply format bounds what a repeating model can write, and leaves out what Cairn sets', () => {
  for (const schema of [planJsonSchema(), remainingPlanJsonSchema()]) {
    const props = schema.properties as Record<
      string,
      { maxLength?: number; items?: { properties: Record<string, { maxLength?: number; maxItems?: number }> } }
    >;
    const stepProps = props.steps?.items?.properties ?? {};
    expect(stepProps.title?.maxLength).toBe(PLAN_REPLY_BOUNDS.title);
    expect(stepProps.description?.maxLength).toBe(PLAN_REPLY_BOUNDS.description);
    expect(stepProps.done_when?.maxLength).toBe(PLAN_REPLY_BOUNDS.doneWhen);
    expect(stepProps.depends_on?.maxItems).toBe(PLAN_REPLY_BOUNDS.dependsOn);
    expect(JSON.stringify(stepProps.depends_on)).toContain('^[A-Za-z0-9_-]+$');
    expect(JSON.stringify(props.replan)).toContain('"maxLength":40');
    expect(props.task?.maxLength).toBe(PLAN_REPLY_BOUNDS.task);
    expect(Object.keys(stepProps)).not.toContain('reused');
  }
  // The parse stays wider than the format: a plan written before the bounds still checks.
  const long = plan([
    {
      ...step('a'),
      title: 't'.repeat(PLAN_REPLY_BOUNDS.title + 1),
      description: 'd'.repeat(PLAN_REPLY_BOUNDS.description + 1),
    },
  ]);
  expect(checkPlanValue(long).ok).toBe(true);
});

// ---- properties over random DAGs ----------------------------------------------------------

/** Ids the schema allows; names of `Object.prototype` members are refused (tested above). */
const stepIdArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).filter((id) => !(id in Object.prototype));

/** A random valid plan: step j may depend only on steps generated before it; listed shuffled. */
const dagArb = fc
  .uniqueArray(stepIdArb, { minLength: 1, maxLength: 25 })
  .chain((ids) => fc.tuple(...ids.map((_, j) => fc.subarray(ids.slice(0, j)))).map((deps) => ({ ids, deps })))
  .chain(({ ids, deps }) =>
    fc.tuple(
      fc.shuffledSubarray(
        ids.map((id, j) => step(id, deps[j] ?? [])),
        { minLength: ids.length },
      ),
      fc.subarray(ids),
    ),
  )
  .map(([steps, replan]) => plan(steps, replan));

/** Pairs [from, to] where `to` depends on `from`, directly or transitively. */
function dependencyPairs(value: Plan): [string, string][] {
  const depsOf = new Map(value.steps.map((s) => [s.id, s.depends_on]));
  return value.steps.flatMap((s) => {
    const seen = new Set<string>();
    const todo = [...s.depends_on];
    for (let dep = todo.pop(); dep !== undefined; dep = todo.pop()) {
      if (!seen.has(dep)) todo.push(...(depsOf.get(dep) ?? []));
      seen.add(dep);
    }
    return [...seen].map((from): [string, string] => [from, s.id]);
  });
}

test('property: every random DAG is accepted unchanged', () => {
  fc.assert(
    fc.property(dagArb, (dag) => {
      expect(acceptedPlan(checkPlanValue(dag))).toEqual(dag);
      expect(acceptedPlan(parsePlanOutput(`Sure!\n\`\`\`json\n${JSON.stringify(dag)}\n\`\`\``))).toEqual(dag);
    }),
  );
});

test('property: one back edge closing a cycle is reported as exactly that cycle', () => {
  const withBackEdge = dagArb
    .filter((dag) => dependencyPairs(dag).length > 0)
    .chain((dag) => fc.constantFrom(...dependencyPairs(dag)).map((pair) => ({ dag, pair })));
  fc.assert(
    fc.property(withBackEdge, ({ dag, pair: [from, to] }) => {
      const steps = dag.steps.map((s) => (s.id === from ? { ...s, depends_on: [...s.depends_on, to] } : s));
      const errors = errorsOf(checkPlanValue({ ...dag, steps }));
      expect(errors).toHaveLength(1);
      const cycle = (errors[0] ?? '').replace(/^cycle: /, '').split(' → ');
      expect(errors[0]).toMatch(/^cycle: /);
      expect(cycle[0]).toBe(cycle[cycle.length - 1]);
      expect(new Set(cycle.slice(1)).size).toBe(cycle.length - 1);
      expect(cycle).toEqual(expect.arrayContaining([from, to]));
      const depsOf = new Map(steps.map((s) => [s.id, s.depends_on]));
      cycle.slice(1).forEach((next, i) => expect(depsOf.get(cycle[i] ?? '')).toContain(next));
    }),
  );
});

describe("checkEditedPlanValue: a person's edit", () => {
  test("a key the plan or a step has not is refused by name, with its path; the model's check drops it", () => {
    const steps = [step('a'), { ...step('b'), dependsOn: ['nowhere'] }];
    const value = { ...plan([step('a'), step('b')]), steps, notes: 'mine' };
    const checked = checkEditedPlanValue(value);
    expect(checked).toEqual({
      ok: false,
      errors: [
        "notes: unknown key; a plan's keys are task, language, steps, replan, reuse",
        "steps.1.dependsOn: unknown key; a step's keys are id, title, description, depends_on, done_when, reused",
      ],
      field: 'notes',
    });
    // A model's plan with the same extra keys is taken, the keys dropped (as before).
    expect(acceptedPlan(checkPlanValue(value))).toEqual(plan([step('a'), step('b')]));
  });

  test('the other rules are reported beside the unknown key', () => {
    const value = { ...plan([step('a', ['x'])]), steps: [{ ...step('a', ['x']), dependsOn: ['a'] }] };
    const checked = checkEditedPlanValue(value);
    expect(checked.ok).toBe(false);
    expect(errorsOf(checked)).toEqual([
      "steps.0.dependsOn: unknown key; a step's keys are id, title, description, depends_on, done_when, reused",
      ...errorsOf(checkPlanValue(value)),
    ]);
    expect(errorsOf(checkPlanValue(value))).toEqual(['step "a": depends on unknown step "x"']);
    expect(checked.ok ? undefined : checked.field).toBe('steps.0.dependsOn');
  });

  test("an edit with only known keys is checked exactly like a model's plan", () => {
    const values: unknown[] = [
      plan([step('a'), step('b', ['a'], { done_when: 'done' })], ['a']),
      { task: 't', steps: [{ id: 'a', title: 'A', description: '' }] },
      plan([step('a', ['a'])]),
      { steps: 'none' },
      'not a plan',
    ];
    for (const value of values) expect(checkEditedPlanValue(value)).toEqual(checkPlanValue(value));
  });
});
