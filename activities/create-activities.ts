/**
 * The activity factory: every side effect Cairn performs, built from injected dependencies so
 * the worker passes real clients and tests pass fakes (STYLE §2).
 */
import { createLlmActivities, type LlmDeps } from './llm/call-llm';

/** Everything activities need from outside. */
export type ActivityDeps = LlmDeps;

/** Builds the activity implementations registered on the worker. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createLlmActivities(deps),
  };
}

/** The activity interface, for `proxyActivities<Activities>` in workflow code (type-only). */
export type Activities = ReturnType<typeof createActivities>;
