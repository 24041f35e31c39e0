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
    ]),
  );
});

test.each(histories.map((h) => [h.name, h] as const))('replays %s deterministically', async (_name, history) => {
  await Worker.runReplayHistory(
    { workflowBundle: { codePath: runInfo().workflowBundlePath }, replayName: history.name },
    history.history,
    history.workflowId,
  );
});
