/**
 * Every replay gate (`patched()` id) the workflow code uses, in one registry (this file, one file
 * per release from 0.3.0 on, e.g. patches-0.3.ts, and patches-retired.ts): the id recorded in
 * history, the newest release whose histories take the old path, the feature it guards and why
 * the old path must stay. A gate exists only for a path a released version's histories or
 * running agents may take (CONTRIBUTING.md, "Gates and releases").
 * Call sites stay where the marker must land — `patched(PATCHES.nestedBudget)` — and never spell
 * an id themselves (test/unit/patch-registry.test.ts fails on one that does, and checks each
 * `since` against the kept histories).
 *
 * An id is recorded in every history that passed its call site, so it can never be renamed or
 * reused: the four without the `cairn-` prefix keep the names they were released with.
 *
 * Lifecycle (docs/operations.md#the-support-window): `patched` while a supported release's kept
 * histories or running agents may take the old path; then `deprecated` (the call site becomes
 * `deprecatePatch`, the new path only); then `retired` (the call removed, the id kept here so it
 * is never reused, and the kept histories that took the old path retired through
 * test/fixtures/retired.json).
 */

import type { PatchInfo } from './patch-info';
import { PATCHES_0_3 } from './patches-0.3';
import { PATCHES_RETIRED_UNRELEASED } from './patches-retired';

export type { PatchInfo, PatchStage } from './patch-info';

/** Every patch, by the name call sites use. */
export const PATCH_INFO = {
  approvalPolicy: {
    id: 'cairn-approval-policy',
    since: '0.1.0',
    stage: 'patched',
    feature: 'a tool call that has an approval policy asks the decideToolCall activity for its decision',
    why: 'runs before approval policies decided every approval in workflow code, with no activity',
  },
  nestedBudget: {
    id: 'cairn-nested-budget',
    since: '0.2.0',
    stage: 'patched',
    feature:
      "budgets reach nested agents: a sub_agent gets what is left of its parent's budget and reports its usage when cancelled",
    why: 'runs before started nested agents with no budget of their own',
  },
  replanDropsKeptIds: {
    id: 'replan-drops-kept-ids',
    since: '0.1.0',
    stage: 'patched',
    feature: 'a replan may repeat the ids of kept steps (they are left out instead of refused)',
    why: 'runs before refused such a replan and asked the model again',
  },
  replanKeepsPlan: {
    id: 'replan-keeps-plan',
    since: '0.1.0',
    stage: 'patched',
    feature: 'a replan that fails validation three times keeps the current plan',
    why: 'runs before failed the agent',
  },
  signalActorUntrusted: {
    id: 'cairn-signal-actor-untrusted',
    since: '0.2.0',
    stage: 'patched',
    feature: "an answer by signal cannot claim an actor: the payload's actor is dropped",
    why: 'runs before recorded the actor a signal named',
  },
  spendAttributes: {
    id: 'cairn-spend-attributes',
    since: '0.1.0',
    stage: 'patched',
    feature: 'the agent upserts AgentTokens and AgentCostUsd at step boundaries and at its end',
    why: 'runs before never upserted them',
  },
  stepCutReply: {
    id: 'step-cut-reply',
    since: '0.1.0',
    stage: 'patched',
    feature: "a step's text reply cut at its token limit is not taken as the result; the model is told",
    why: 'runs before finished the step with the cut text',
  },
  stepLoopGuards: {
    id: 'cairn-step-loop-guards',
    since: '0.1.0',
    stage: 'patched',
    feature:
      "a step's loop guards (calls per reply, identical calls, the tool error budget, approvals once per digest) act",
    why: 'runs before ran every call the model asked for',
  },
  stepPartialResult: {
    id: 'cairn-step-partial-result',
    since: '0.2.0',
    stage: 'patched',
    feature: 'a cancelled step reports its partial result to the agent before it ends',
    why: 'runs before ended cancelled with nothing reported',
  },
  tracing: {
    id: 'cairn-tracing',
    since: '0.1.0',
    stage: 'patched',
    feature: "a run is traced with Temporal's OpenTelemetry interceptors",
    why: 'runs before were never traced (tracing adds commands)',
  },
  tracingByHeader: {
    id: 'cairn-tracing-by-header',
    since: '0.2.0',
    stage: 'patched',
    feature: 'a run is traced only when its start carried a trace header',
    why: 'runs before were traced whenever tracing was on',
  },
  ...PATCHES_0_3,
  ...PATCHES_RETIRED_UNRELEASED,
} as const satisfies Record<string, PatchInfo>;

/** The name of a patch in the registry. */
export type PatchName = keyof typeof PATCH_INFO;

/** The marker ids by name: what call sites pass to `patched()` / `deprecatePatch()`. */
export const PATCHES = Object.fromEntries(Object.entries(PATCH_INFO).map(([name, info]) => [name, info.id])) as {
  readonly [K in PatchName]: (typeof PATCH_INFO)[K]['id'];
};

/** Every registered patch. */
export const ALL_PATCHES: readonly PatchInfo[] = Object.values(PATCH_INFO);
