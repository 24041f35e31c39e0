/**
 * The real-model suite's time, as CI budgets it: every agent run ends within AGENT_TIME_LIMIT_MS
 * (checks.ts: later, it is cancelled and judged a violation), and a further run of an agent
 * (agents.ts, `exercises`) starts only while it could still end, at that limit, within
 * AGENTS_BUDGET_MS of the agents' start — so the suite never starts an attempt that cannot finish
 * inside CI's step budget. The rest of the step's budget is for starting the servers and worker
 * before the agents, judging and stopping everything after them (about a minute on two cores).
 */
import { AGENT_TIME_LIMIT_MS } from './checks';

/** From the agents' start to the end of the last run that may start. */
export const AGENTS_BUDGET_MS = 19 * 60_000;

/** `.ci/run`'s budget for `npm run test:real-model` (a unit test holds the two together). */
export const SUITE_BUDGET_S = 21 * 60;

/** Whether another agent run, started `elapsedMs` after the agents' start, can end within the budget. */
export function attemptFits(elapsedMs: number): boolean {
  return elapsedMs + AGENT_TIME_LIMIT_MS <= AGENTS_BUDGET_MS;
}
