/** The one table of step status changes: every pair judged, final statuses final, all reachable. */
import { STEP_TRANSITIONS, canMoveStep, isActiveStep } from '../../workflows/model/plan/step-transitions';
import type { StepStatus } from '../../workflows/model/plan/plan-types';

const ALL: StepStatus[] = ['pending', 'running', 'waiting', 'completed', 'failed', 'skipped', 'cancelled'];

/** The lifecycle, spelled out independently of the table. */
const ALLOWED = new Set([
  'pending→running',
  'pending→skipped',
  'pending→cancelled',
  'running→waiting',
  'running→completed',
  'running→failed',
  'running→cancelled',
  'waiting→running',
  'waiting→completed',
  'waiting→failed',
  'waiting→cancelled',
  'waiting→pending',
  'waiting→skipped',
  'failed→waiting',
]);

test.each(ALL.flatMap((from) => ALL.map((to) => [from, to] as const)))('%s → %s', (from, to) => {
  expect(canMoveStep(from, to)).toBe(ALLOWED.has(`${from}→${to}`));
});

test('completed, skipped and cancelled are final', () => {
  for (const status of ['completed', 'skipped', 'cancelled'] as const) expect(STEP_TRANSITIONS[status]).toEqual([]);
});

test('every status is reachable from pending', () => {
  const seen = new Set<StepStatus>(['pending']);
  for (let grew = true; grew;) {
    grew = false;
    for (const from of [...seen]) {
      for (const to of STEP_TRANSITIONS[from]) if (!seen.has(to)) grew = Boolean(seen.add(to));
    }
  }
  expect([...seen].sort()).toEqual([...ALL].sort());
});

test('a step is active while running or waiting', () => {
  expect(ALL.filter(isActiveStep)).toEqual(['running', 'waiting']);
});
