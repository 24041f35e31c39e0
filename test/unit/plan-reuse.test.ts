/**
 * Typed reuse, the pure parts: a plan's `reuse` adopts offered steps (first, marked, `reuse`
 * dropped) and a reference to no offered step is a coded error; the check runs the DAG rules
 * over the adopted steps (a new step may depend on one); a replan keeps adopted steps; the
 * thread offers each finished step of its earlier task turns, bounded; the planner's message
 * lists them.
 */
import {
  checkEditedPlanValue,
  checkPlanValue,
  mergeReplan,
  parsePlanOutput,
} from '../../workflows/model/plan/check-plan';
import { MAX_REUSABLE_STEPS, REUSE_UNKNOWN, type ReusableStep } from '../../workflows/model/plan/plan-reuse';
import { plannerTurnMessage, plannerTaskMessage } from '../../workflows/model/agent/prompts';
import { reusableSteps } from '../../workflows/model/thread/thread-context';
import type { Turn } from '../../workflows/contract/thread-contract';
import { plan, step } from '../harness/plans';
import { formatPlan } from '../../client/agents/cli/render';

const offered: ReusableStep[] = [
  { agentId: 'thread-a/turn-1', stepId: 's1', title: 'Find the price', result: '$10 per seat' },
  { agentId: 'thread-a/turn-2', stepId: 's1', title: 'Find another', result: 'free' },
];

const errorsOf = (check: ReturnType<typeof checkPlanValue>): string[] => (check.ok ? [] : check.errors);

test('a reuse is adopted as a marked step before the new ones, and a new step may depend on it', () => {
  const value = plan([step('s2', ['s1'])], { reuse: [{ agentId: 'thread-a/turn-1', stepId: 's1' }] });
  const check = checkPlanValue(value, offered);
  if (!check.ok) throw new Error(check.errors.join('; '));
  expect(check.plan.reuse).toBeUndefined();
  expect(check.plan.steps.map((s) => [s.id, s.title, s.depends_on, s.reused])).toEqual([
    ['s1', 'Find the price', [], { agentId: 'thread-a/turn-1', stepId: 's1' }],
    ['s2', 'Step s2', ['s1'], undefined],
  ]);
  // A checked plan checks again as it is (a person confirming or editing it, a replan keeping it).
  expect(checkEditedPlanValue(check.plan, offered)).toEqual(check);
});

test('a reuse of no offered step is a coded error naming what may be reused, and is not repaired', () => {
  const value = plan([step('s2', ['s1'])], { reuse: [{ agentId: 'thread-a/turn-1', stepId: 's9' }] });
  const check = checkPlanValue(value, offered);
  expect(check.ok).toBe(false);
  expect(check.ok || check.repaired).toBeFalsy();
  const [unknown, dependency] = errorsOf(check);
  expect(unknown).toMatch(
    new RegExp(`^reuse\\.0: ${REUSE_UNKNOWN}: no finished earlier step "s9" of "thread-a/turn-1"`),
  );
  expect(unknown).toContain('{"agentId": "thread-a/turn-2", "stepId": "s1"}');
  expect(dependency).toBe('step "s2": depends on unknown step "s1"');
  // Without anything offered (any agent outside a thread), every reuse is refused.
  expect(errorsOf(checkPlanValue({ ...value, reuse: [{ agentId: 'thread-a/turn-1', stepId: 's1' }] }))[0]).toContain(
    'no earlier steps may be reused here',
  );
});

test('a step marked reused by hand must be offered too; two adoptions under one id clash', () => {
  const forged = plan([step('s1', [], { reused: { agentId: 'thread-a/turn-1', stepId: 's1' } })]);
  expect(errorsOf(checkPlanValue(forged))[0]).toMatch(new RegExp(`^steps\\.0\\.reused: ${REUSE_UNKNOWN}`));
  const both = plan([step('s3')], {
    reuse: [
      { agentId: 'thread-a/turn-1', stepId: 's1' },
      { agentId: 'thread-a/turn-2', stepId: 's1' },
    ],
  });
  expect(errorsOf(checkPlanValue(both, offered))).toEqual(['step "s1": duplicate id']);
});

test('a plan without reuse checks as before, with or without offered steps', () => {
  const value = plan([step('a'), step('b', ['a'])]);
  expect(checkPlanValue(value, offered)).toEqual(checkPlanValue(value));
  expect(parsePlanOutput(JSON.stringify(value), offered)).toEqual(checkPlanValue(value));
});

test('a replan keeps an adopted step as it is, and may adopt another', () => {
  const first = checkPlanValue(
    plan([step('s2', ['s1'])], { reuse: [{ agentId: 'thread-a/turn-1', stepId: 's1' }] }),
    offered,
  );
  if (!first.ok) throw new Error('the first plan');
  const merged = mergeReplan(
    first.plan,
    ['s1', 's2'],
    { steps: [step('s3', ['s1', 'x'])], replan: [], reuse: [{ agentId: 'thread-a/turn-2', stepId: 's1' }] },
    'refuse',
    offered,
  );
  expect(errorsOf(merged)).toEqual(['step "s1": duplicate id', 'step "s3": depends on unknown step "x"']);
  const next = mergeReplan(first.plan, ['s1', 's2'], { steps: [step('s3', ['s1'])], replan: [] }, 'refuse', offered);
  if (!next.ok) throw new Error(next.errors.join('; '));
  expect(next.plan.steps.map((s) => [s.id, s.reused?.agentId])).toEqual([
    ['s1', 'thread-a/turn-1'],
    ['s2', undefined],
    ['s3', undefined],
  ]);
});

const turn = (n: number, steps: Turn['steps'], extra: Partial<Turn> = {}): Turn => ({
  messageId: `msg-${n}`,
  text: `message ${n}`,
  kind: 'task',
  status: 'completed',
  agentId: `thread-a/turn-${n}`,
  ...(steps ? { steps } : {}),
  ...extra,
});

test('the thread offers the finished steps of its earlier task turns, newest kept, results and titles cut', () => {
  const earlier: Turn[] = [
    turn(1, [
      { id: 's1', title: 'T'.repeat(300), result: 'r'.repeat(5000) },
      { id: 's2', title: 'failed', result: undefined },
    ]),
    { messageId: 'msg-2', text: 'hi', kind: 'chat', status: 'completed', reply: 'hello' },
    turn(3, [{ id: 'a', title: 'A', result: 'done' }]),
  ];
  const offers = reusableSteps(earlier);
  expect(offers.map((o) => [o.agentId, o.stepId, o.title.length, o.result.length])).toEqual([
    ['thread-a/turn-1', 's1', 200, 4000],
    ['thread-a/turn-3', 'a', 1, 4],
  ]);
  const many = turn(
    4,
    Array.from({ length: MAX_REUSABLE_STEPS + 5 }, (_, i) => ({ id: `s${i}`, title: 't', result: 'r' })),
  );
  const bounded = reusableSteps([...earlier, many]);
  expect(bounded).toHaveLength(MAX_REUSABLE_STEPS);
  expect(bounded.at(-1)?.stepId).toBe(`s${MAX_REUSABLE_STEPS + 4}`);
});

test("the planner's message lists the offered steps by reference after the task; none, the task message alone", () => {
  expect(plannerTurnMessage('do it', ['a.txt'])).toBe(plannerTaskMessage('do it', ['a.txt']));
  const message = plannerTurnMessage('compare', undefined, [{ ...offered[0]!, result: 'x'.repeat(400) }]);
  expect(message.startsWith('compare\n\n')).toBe(true);
  expect(message).toContain('- {"agentId": "thread-a/turn-1", "stepId": "s1"} Find the price: ');
  expect(message).toContain(`${'x'.repeat(300)} …`);
  expect(message).not.toContain('x'.repeat(301));
  expect(message).toContain('"reuse": [{"agentId": string, "stepId": string}]');
});

test('the CLI shows an adopted step as reused, and a new one without the marker', () => {
  const check = checkPlanValue(
    plan([step('s2', ['s1'])], { reuse: [{ agentId: 'thread-a/turn-1', stepId: 's1' }] }),
    offered,
  );
  if (!check.ok) throw new Error(check.errors.join('; '));
  const [adopted, fresh] = formatPlan(check.plan)
    .split('\n')
    .filter((line) => /^\s*\d+\./.test(line));
  expect(adopted).toBe(' 1. [s1] Find the price [reused: s1 of thread-a/turn-1]');
  expect(fresh).toBe(' 2. [s2] Step s2 (after s1)');
});
