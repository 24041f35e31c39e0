/**
 * What a replan changed (plan-changes.ts), and how the person re-checking a replanned remainder
 * is told: in words on the interaction's prompt and in the CLI's plan check.
 */
import { promptFor, type PromptContext } from '../../client/agents/cli/kind-prompts';
import type { Prompter } from '../../client/cli/prompter';
import type { Interaction } from '../../workflows/model/interactions/interaction-types';
import { describeChanges, planChanges } from '../../workflows/model/plan/plan-changes';
import { plan, step } from '../harness/plans';

const before = plan([step('s1'), step('s2', ['s1']), step('s3', ['s2'])]);

test('added, removed and changed steps, in plan order; a reordered dependency list is no change', () => {
  const after = plan([
    step('s1'),
    step('s3', ['s1'], { title: 'Third, earlier' }),
    step('s4', ['s1']),
    step('s5', ['s4']),
  ]);
  expect(planChanges(before, after)).toEqual({ added: ['s4', 's5'], removed: ['s2'], changed: ['s3'] });
  const same = plan([step('s1'), step('s2', ['s1']), step('s3', ['s2'])]);
  expect(planChanges(before, same)).toEqual({ added: [], removed: [], changed: [] });
  const twoDeps = plan([step('a'), step('b'), step('c', ['a', 'b'])]);
  const swapped = plan([step('a'), step('b'), step('c', ['b', 'a'])]);
  expect(planChanges(twoDeps, swapped).changed).toEqual([]);
  expect(describeChanges(planChanges(before, after))).toBe('added s4, s5; removed s2; changed s3');
  expect(describeChanges(planChanges(before, same))).toBe('no change');
});

test("the CLI's plan check shows what the replan changed before the plan", async () => {
  const shown: string[] = [];
  const ask = {
    show: (text: string) => void shown.push(text),
    select: () => Promise.resolve('confirm'),
  } as unknown as Prompter;
  const check = {
    id: 'i2',
    kind: 'plan.check',
    status: 'open',
    createdAt: 0,
    prompt: 'Check the revised plan',
    plan: before,
    revision: 2,
    changes: { added: ['s3'], removed: ['s4'], changed: [] },
  } as unknown as Extract<Interaction, { kind: 'plan.check' }>;
  const context = {
    ask,
    request: {},
    lastForm: new Map(),
    readText: () => Promise.resolve(''),
  } as unknown as PromptContext;
  expect(await promptFor('plan.check', check, context)).toEqual({ decision: 'confirm' });
  expect(shown[0]?.split('\n').slice(0, 2)).toEqual([
    'Check the revised plan (revision 2)',
    'since the last check: added s3; removed s4',
  ]);
});
