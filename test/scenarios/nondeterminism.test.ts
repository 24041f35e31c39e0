/**
 * The replay gate can fail (docs/operations.md#changing-workflow-code). A deliberately
 * incompatible change to `agentWorkflow` — a timer before anything else — is bundled from a
 * test-only entry (test/scenarios/variants) and replayed against every kept history of every
 * release: unpatched, each agent history fails with a DeterminismViolationError; behind
 * `patched()`, every history replays; moved on to `deprecatePatch()` while histories recorded
 * before the patch are kept, the agent histories fail again.
 */
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { PRELOAD_MODULES, WORKFLOW_INTERCEPTOR_MODULES } from '../../worker/workflows-path';
import { replayAll, savedHistories, type SavedHistory } from '../harness/histories';
import { quietLogger } from '../harness/quiet-logger';

const kept = savedHistories();
const isAgent = (h: SavedHistory) =>
  h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name === 'agentWorkflow';
const agentHistories = kept.filter(isAgent);

/** Replays `histories` on the bundle of a variant entry; the error of each, in order (undefined: replayed). */
async function replayOn(variant: string, histories: SavedHistory[]): Promise<(Error | undefined)[]> {
  const workflowBundle = await bundleWorkflowCode({
    workflowsPath: join(__dirname, 'variants', variant),
    preloadModules: PRELOAD_MODULES,
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: quietLogger,
  });
  const errors = await replayAll(workflowBundle, histories);
  expect(errors).toHaveLength(histories.length);
  return errors;
}

/** The histories named by release/scenario, with what their replay raised. */
const outcomes = (histories: SavedHistory[], errors: (Error | undefined)[]) =>
  histories.map((h, i) => [`${h.release}/${h.name}`, errors[i]?.constructor.name ?? 'replayed']);

test('the kept agent histories cover a run started from a carry and a nested agent', () => {
  expect(agentHistories.map((h) => h.name)).toEqual(
    expect.arrayContaining(['agent-diamond', 'agent-rollover-execute', 'agent-nested', 'agent-approval']),
  );
});

test('an unpatched new command in agentWorkflow fails the replay of every kept agent history', async () => {
  const errors = await replayOn('sleep-first.ts', agentHistories);
  expect(outcomes(agentHistories, errors)).toEqual(
    agentHistories.map((h) => [`${h.release}/${h.name}`, 'DeterminismViolationError']),
  );
  expect(errors.every((e) => e instanceof DeterminismViolationError)).toBe(true);
}, 120_000);

test('the same change behind patched() replays every kept history of every release', async () => {
  const errors = await replayOn('sleep-first-patched.ts', kept);
  expect(outcomes(kept, errors)).toEqual(kept.map((h) => [`${h.release}/${h.name}`, 'replayed']));
}, 120_000);

test('deprecatePatch() while histories recorded before the patch are kept fails their replay', async () => {
  const errors = await replayOn('sleep-first-deprecated.ts', agentHistories);
  expect(errors.every((e) => e instanceof DeterminismViolationError)).toBe(true);
}, 120_000);
