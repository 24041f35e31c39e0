/** DAG scheduling (docs/architecture/steps.md#scheduling-and-failures): readiness, cap, priority, skipping, settling. */
import fc from 'fast-check';
import type { Plan, PlanStep, StepStatus } from '../../workflows/model/plan/plan-types';
import { allSettled, isSettled, remainingPathLengths, stepsToSkip } from '../../workflows/model/plan/scheduler';
import { selectStepsToStart } from '../../workflows/model/plan-as-graph';

const step = (id: string, depends_on: string[] = []): PlanStep => ({ id, title: id, description: '', depends_on });
const plan = (steps: PlanStep[]): Plan => ({ task: 't', language: 'en', steps, replan: [] });

const STATUSES: StepStatus[] = ['pending', 'running', 'waiting', 'completed', 'failed', 'skipped', 'cancelled'];

test.each(STATUSES)('isSettled(%s)', (status) => {
  expect(isSettled(status)).toBe(['completed', 'failed', 'skipped', 'cancelled'].includes(status));
});

test('allSettled needs every step settled; a missing status is pending', () => {
  const p = plan([step('a'), step('b')]);
  expect(allSettled(p, { a: 'completed', b: 'skipped' })).toBe(true);
  expect(allSettled(p, { a: 'completed' })).toBe(false);
  expect(allSettled(p, { a: 'completed', b: 'waiting' })).toBe(false);
});

test('remainingPathLengths counts steps on the longest path to a sink', () => {
  const p = plan([
    step('c', ['b']),
    step('a'),
    step('b', ['a']),
    step('d'),
    step('e', ['a', 'd']),
    step('f', ['c', 'e']),
  ]);
  expect(remainingPathLengths(p)).toEqual({ a: 4, b: 3, c: 2, d: 3, e: 2, f: 1 });
});

describe('selectStepsToStart', () => {
  const p = plan([step('a'), step('x'), step('b', ['a']), step('y', ['x']), step('z', ['b', 'y'])]);

  test('starts every step with no dependencies, longest path first', () => {
    expect(selectStepsToStart(p, {}, 10)).toEqual(['a', 'x']);
  });

  test('starts a step the moment its dependencies complete, not level by level', () => {
    expect(selectStepsToStart(p, { a: 'running', x: 'completed' }, 10)).toEqual(['y']);
  });

  test('needs every dependency completed', () => {
    expect(selectStepsToStart(p, { a: 'completed', x: 'completed', b: 'completed', y: 'waiting' }, 10)).toEqual([]);
    expect(selectStepsToStart(p, { a: 'failed', x: 'completed', y: 'completed' }, 10)).toEqual([]);
  });

  test('fills only the free slots; running and waiting steps take one each', () => {
    const wide = plan([step('r'), step('w'), step('p1'), step('p2'), step('p3')]);
    expect(selectStepsToStart(wide, { r: 'running', w: 'waiting' }, 3)).toEqual(['p1']);
    expect(selectStepsToStart(wide, { r: 'running', w: 'waiting' }, 2)).toEqual([]);
    expect(selectStepsToStart(wide, { r: 'running', w: 'waiting' }, 1)).toEqual([]);
  });

  test.each([0, -1, Infinity, NaN])('maxParallel %p means no cap', (cap) => {
    const wide = plan([step('r'), step('p1'), step('p2'), step('p3')]);
    expect(selectStepsToStart(wide, { r: 'running' }, cap)).toEqual(['p1', 'p2', 'p3']);
  });

  test('when capped, the longest remaining path goes first, ties in plan order', () => {
    const p2 = plan([step('short1'), step('short2'), step('long'), step('long2', ['long'])]);
    expect(selectStepsToStart(p2, {}, 1)).toEqual(['long']);
    expect(selectStepsToStart(p2, {}, 2)).toEqual(['long', 'short1']);
  });
});

test('ids named like Object.prototype members never read the prototype', () => {
  const p = plan([step('valueOf'), step('constructor', ['valueOf']), step('__proto__', ['constructor'])]);
  expect(remainingPathLengths(p)).toEqual(JSON.parse('{"valueOf":3,"constructor":2,"__proto__":1}'));
  expect(Object.keys(remainingPathLengths(p))).toEqual(['valueOf', 'constructor', '__proto__']);
  expect(selectStepsToStart(p, {}, 5)).toEqual(['valueOf']);
  expect(allSettled(p, {})).toBe(false);
  const statuses = JSON.parse('{"valueOf":"completed","constructor":"failed"}') as Record<string, StepStatus>;
  expect(selectStepsToStart(p, statuses, 5)).toEqual([]);
  expect(stepsToSkip(p, statuses)).toEqual(['__proto__']);
});

describe('stepsToSkip', () => {
  const p = plan([step('a'), step('b', ['a']), step('c', ['b']), step('d'), step('e', ['d', 'c'])]);

  test.each<StepStatus>(['failed', 'skipped', 'cancelled'])('skips pending dependents of a %s step', (status) => {
    expect(stepsToSkip(p, { a: status, d: 'running' })).toEqual(['b', 'c', 'e']);
  });

  test('leaves independent, running and settled steps alone', () => {
    expect(stepsToSkip(p, { a: 'completed', b: 'failed', d: 'completed' })).toEqual(['c', 'e']);
    expect(stepsToSkip(p, { a: 'completed', b: 'failed', c: 'skipped', e: 'running' })).toEqual([]);
    expect(stepsToSkip(p, { a: 'completed', d: 'running' })).toEqual([]);
  });
});

// ---- properties over random DAGs ----------------------------------------------------------

/** Ids the schema allows; names of `Object.prototype` members are refused (tested above). */
const stepIdArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).filter((id) => !(id in Object.prototype));

/** A random valid plan: step j may depend only on steps generated before it; listed shuffled. */
const dagArb = (maxSteps: number) =>
  fc
    .uniqueArray(stepIdArb, { minLength: 1, maxLength: maxSteps })
    .chain((ids) => fc.tuple(...ids.map((_, j) => fc.subarray(ids.slice(0, j)))).map((deps) => ({ ids, deps })))
    .chain(({ ids, deps }) =>
      fc.shuffledSubarray(
        ids.map((id, j) => step(id, deps[j] ?? [])),
        { minLength: ids.length },
      ),
    )
    .map(plan);

/** Longest path to a sink by memoised recursion over dependents, written independently. */
function longestPaths(p: Plan): Map<string, number> {
  const memo = new Map<string, number>();
  const length = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const dependents = p.steps.filter((s) => s.depends_on.includes(id));
    const result = 1 + Math.max(0, ...dependents.map((s) => length(s.id)));
    memo.set(id, result);
    return result;
  };
  p.steps.forEach((s) => length(s.id));
  return memo;
}

/** Ids of pending steps whose dependencies all completed, computed independently. */
function readyIds(p: Plan, statuses: Record<string, StepStatus>): string[] {
  return p.steps
    .filter((s) => (statuses[s.id] ?? 'pending') === 'pending')
    .filter((s) => s.depends_on.every((d) => statuses[d] === 'completed'))
    .map((s) => s.id);
}

test('property: remainingPathLengths matches an independent longest-path count', () => {
  fc.assert(
    fc.property(dagArb(12), (p) => {
      const lengths = remainingPathLengths(p);
      expect(Object.keys(lengths).sort()).toEqual(p.steps.map((s) => s.id).sort());
      const expected = longestPaths(p);
      for (const s of p.steps) expect(lengths[s.id]).toBe(expected.get(s.id));
    }),
  );
});

test('property: stepsToSkip is every pending step downstream of a blocking status', () => {
  const withStatuses = dagArb(20).chain((p) =>
    fc.tuple(fc.constant(p), fc.tuple(...p.steps.map(() => fc.constantFrom(...STATUSES)))),
  );
  fc.assert(
    fc.property(withStatuses, ([p, drawn]) => {
      const statuses = Object.fromEntries(p.steps.map((s, i) => [s.id, drawn[i] ?? 'pending']));
      const depsOf = new Map(p.steps.map((s) => [s.id, s.depends_on]));
      const upstream = (id: string): Set<string> => {
        const seen = new Set<string>();
        const todo = [...(depsOf.get(id) ?? [])];
        for (let d = todo.pop(); d !== undefined; d = todo.pop()) {
          if (!seen.has(d)) todo.push(...(depsOf.get(d) ?? []));
          seen.add(d);
        }
        return seen;
      };
      const expected = p.steps
        .filter((s) => statuses[s.id] === 'pending')
        .filter((s) => [...upstream(s.id)].some((u) => ['failed', 'skipped', 'cancelled'].includes(statuses[u] ?? '')))
        .map((s) => s.id);
      expect(stepsToSkip(p, statuses)).toEqual(expected);
    }),
  );
});

test('property: simulated execution respects dependencies, the cap and priority, and finishes', () => {
  fc.assert(
    fc.property(dagArb(15), fc.integer({ min: 1, max: 20 }), fc.gen(), (p, cap, g) => {
      const statuses: Record<string, StepStatus> = {};
      const lengths = longestPaths(p);
      const depsOf = new Map(p.steps.map((s) => [s.id, s.depends_on]));
      const active = () => p.steps.map((s) => s.id).filter((id) => ['running', 'waiting'].includes(statuses[id] ?? ''));
      for (let round = 0; !p.steps.every((s) => statuses[s.id] === 'completed'); round++) {
        expect(round).toBeLessThanOrEqual(2 * p.steps.length);
        const ready = readyIds(p, statuses);
        const free = Math.max(0, cap - active().length);
        const started = selectStepsToStart(p, statuses, cap);
        expect(started.length).toBe(Math.min(free, ready.length));
        expect(new Set(started).size).toBe(started.length);
        for (const id of started) {
          expect(ready).toContain(id);
          for (const dep of depsOf.get(id) ?? []) expect(statuses[dep]).toBe('completed');
          statuses[id] = 'running';
        }
        const passedOver = ready.filter((id) => !started.includes(id));
        for (const id of passedOver) {
          for (const s of started) expect(lengths.get(id)).toBeLessThanOrEqual(lengths.get(s) ?? 0);
        }
        expect(active().length).toBeLessThanOrEqual(cap);
        if (cap >= p.steps.length) expect(readyIds(p, statuses)).toEqual([]);
        const running = active();
        expect(running.length).toBeGreaterThan(0);
        const pick = running[g(fc.nat, { max: running.length - 1 })] ?? '';
        statuses[pick] = statuses[pick] === 'running' && g(fc.boolean) ? 'waiting' : 'completed';
      }
    }),
  );
});
