/**
 * The replay guard can fail: a bundle whose agentWorkflow issues a different first command
 * is rejected with a DeterminismViolationError when it replays a recorded agent history.
 */
import { join } from 'node:path';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { savedHistories } from '../harness/histories';
import { quietLogger } from '../harness/quiet-logger';

test('a non-deterministic change to agentWorkflow fails replay', async () => {
  const history = savedHistories().find((h) => h.name === 'agent-diamond');
  expect(history).toBeDefined();
  const bundle = await bundleWorkflowCode({
    workflowsPath: join(__dirname, '..', 'fixtures', 'changed-workflows'),
    logger: quietLogger,
  });
  await expect(
    Worker.runReplayHistory({ workflowBundle: bundle, replayName: 'changed' }, history?.history, history?.workflowId),
  ).rejects.toBeInstanceOf(DeterminismViolationError);
});
