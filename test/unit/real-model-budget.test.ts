/**
 * The real-model suite never starts an agent run that cannot end inside CI's budget for it: a
 * further attempt starts only while it could still end, at the agents' time limit, within the
 * suite's budget — and that budget is the one `.ci/run` gives the step.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENTS_BUDGET_MS, attemptFits, SUITE_BUDGET_S } from '../../real-model/budget';
import { AGENT_TIME_LIMIT_MS } from '../../real-model/checks';

test('an attempt starts only while it can end, at its time limit, within the budget', () => {
  const latest = AGENTS_BUDGET_MS - AGENT_TIME_LIMIT_MS;
  expect(latest).toBeGreaterThan(0);
  expect(attemptFits(0)).toBe(true);
  expect(attemptFits(latest)).toBe(true);
  expect(attemptFits(latest + 1)).toBe(false);
  // The run that took 747 s: a third attempt at 10 minutes (the old cut-off) would not start.
  expect(attemptFits(10 * 60_000)).toBe(false);
});

test(".ci/run gives the step the suite's budget, which leaves room before and after the agents", () => {
  const ci = readFileSync(join(__dirname, '..', '..', '.ci', 'run'), 'utf8');
  const budget = /step "npm run test:real-model" (\d+) /.exec(ci)?.[1];
  expect(Number(budget)).toBe(SUITE_BUDGET_S);
  expect(SUITE_BUDGET_S * 1000 - AGENTS_BUDGET_MS).toBeGreaterThanOrEqual(60_000);
});
