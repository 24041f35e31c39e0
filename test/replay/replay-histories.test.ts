/**
 * Replays every history recorded from a real run (test/fixtures/histories) against the
 * current workflow code. A change that would break running workflows — a reordered activity,
 * a new timer, a changed command — raises a DeterminismViolationError here.
 * Re-record after an intended change with `CAIRN_RECORD_HISTORIES=1 npm run test:only-jest`.
 */
import { Worker } from '@temporalio/worker';
import { runInfo } from '../harness/run-info';
import { savedHistories } from '../harness/histories';

const histories = savedHistories();

test('there are recorded histories to replay', () => {
  expect(histories.map((h) => h.name)).toEqual(
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

/** The events of a saved history, by scenario name. */
function eventsOf(name: string) {
  const saved = histories.find((h) => h.name === name);
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

test.each(histories.map((h) => [h.name, h] as const))('replays %s deterministically', async (_name, history) => {
  await Worker.runReplayHistory(
    { workflowBundle: { codePath: runInfo().workflowBundlePath }, replayName: history.name },
    history.history,
    history.workflowId,
  );
});
