/**
 * "A run of this release replays with this release": fetches a finished workflow's history from
 * the dev server and replays it against the test run's workflow bundle, so a patch that records
 * its marker in one place and looks for it in another fails a test, not a worker restart.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { cairnDataConverter } from '../../temporal/payloads/data-converter';
import { runInfo } from './run-info';

export async function expectReplaysItself(handle: WorkflowHandle): Promise<void> {
  const history = await handle.fetchHistory();
  await Worker.runReplayHistory(
    {
      workflowBundle: { codePath: runInfo().workflowBundlePath },
      replayName: handle.workflowId,
      dataConverter: cairnDataConverter({ compression: true }),
    },
    history,
    handle.workflowId,
  );
}
