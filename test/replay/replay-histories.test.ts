/**
 * Replays every history recorded from a real run, of every release
 * (test/fixtures/histories/<release>), against the current workflow code. A change that would
 * break a run started on any kept release — a reordered activity, a new timer, a changed
 * command — raises a DeterminismViolationError here; guard it with `patched()` instead
 * (docs/operations.md#changing-workflow-code). Earlier releases' histories are never re-recorded.
 */
import { runInfo } from '../harness/run-info';
import { replayAll, savedHistories } from '../harness/histories';

const histories = savedHistories();

test('the first generation (0.1.0) is kept: every scenario recorded then is replayed', () => {
  expect(histories.filter((h) => h.release === '0.1.0').map((h) => h.name)).toEqual(
    expect.arrayContaining([
      'llm-check',
      'agent-asks',
      'agent-diamond',
      'agent-plan-check',
      'agent-replan',
      'agent-step-failure-retry',
      'agent-summary',
      'step-tools',
      'agent-rollover-plan-check',
      'agent-rollover-execute',
      'step-rollover',
      'agent-approval',
      'step-approval',
      'agent-expiry',
      'agent-cancel',
      'step-cancel',
      'step-sub-agent',
      'agent-nested',
      'agent-step-question',
      'step-question',
    ]),
  );
});

/** The events of a saved history, by scenario name (the newest release's). */
function eventsOf(name: string) {
  const saved = histories.filter((h) => h.name === name).at(-1);
  if (!saved) throw new Error(`no recorded history "${name}"`);
  return saved.history.events ?? [];
}

const signalNames = (name: string) =>
  eventsOf(name).flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []);

test('the corpus covers approvals, expiry timers, cancellation, sub_agent and a question inside a step', () => {
  // A step that waited for a tool.approval and got the answer routed back, then ran the tool.
  expect(signalNames('step-approval')).toContain('stepAnswer');
  expect(eventsOf('step-approval').some((e) => e.activityTaskCompletedEventAttributes)).toBe(true);
  expect(eventsOf('agent-approval').some((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toBe(true);
  // Remind and expire timers that fired.
  expect(eventsOf('agent-expiry').filter((e) => e.timerFiredEventAttributes)).toHaveLength(2);
  // A cancellation request that ended the agent and the running step as cancelled.
  expect(eventsOf('agent-cancel').some((e) => e.workflowExecutionCancelRequestedEventAttributes)).toBe(true);
  expect(eventsOf('agent-cancel').at(-1)?.workflowExecutionCanceledEventAttributes).toBeTruthy();
  expect(eventsOf('step-cancel').at(-1)?.workflowExecutionCanceledEventAttributes).toBeTruthy();
  // A step that started a nested agent as its child, and that nested agent run.
  const children = eventsOf('step-sub-agent').flatMap(
    (e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ?? [],
  );
  expect(children).toEqual(['agentWorkflow']);
  expect(eventsOf('agent-nested').at(-1)?.workflowExecutionCompletedEventAttributes).toBeTruthy();
  // A step's ask_user: the agent received it, the step got the answer.
  expect(signalNames('agent-step-question')).toContain('stepInteraction');
  expect(signalNames('step-question')).toContain('stepAnswer');
});

/** What each kept history raised, replayed through one replay worker, by release/scenario. */
const replayed = new Map<string, Error | undefined>();
beforeAll(async () => {
  const errors = await replayAll({ codePath: runInfo().workflowBundlePath }, histories);
  histories.forEach((h, i) => replayed.set(`${h.release}/${h.name}`, errors[i]));
}, 300_000);

test.each(histories.map((h) => `${h.release}/${h.name}`))('replays %s deterministically', (name) => {
  expect(replayed.has(name)).toBe(true);
  expect(replayed.get(name)).toBeUndefined();
});
