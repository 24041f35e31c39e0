/**
 * A workflow interceptor (bundled through worker/workflows-path.ts) that records how long each
 * step took, by how it ended, in `cairn_step_duration_seconds`. Measured in workflow code
 * because only the step workflow knows when the step ended and how; measured from the start
 * of its run chain, so a step that continued as new counts once, in full, when it ends.
 *
 * Deterministic: workflow time only, and the workflow metric meter emits nothing during replay
 * (a step replayed after a worker restart is not counted twice).
 */
import {
  ContinueAsNew,
  isCancellation,
  metricMeter,
  workflowInfo,
  type Next,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
} from '@temporalio/workflow';
import { workflowTime } from '../base/workflow-time';
import { STEP_WORKFLOW_TYPE } from '../model/agent/agent-contract';

/** The histogram's name (worker/telemetry/cairn-metrics.ts lists every metric). */
export const STEP_DURATION_METRIC = 'cairn_step_duration_seconds';

/** How a step run ended: its outcome's status, or how it was thrown out. */
function statusOf(result: unknown): string {
  if (typeof result === 'object' && result !== null && 'status' in result && typeof result.status === 'string') {
    return result.status;
  }
  return 'unknown';
}

class StepDuration implements WorkflowInboundCallsInterceptor {
  async execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>) {
    const record = (status: string) =>
      metricMeter
        .createHistogram(STEP_DURATION_METRIC, 'float', 's', 'Seconds per step by how it ended')
        .record((workflowTime() - workflowInfo().startTime.getTime()) / 1000, { status });
    try {
      const result = await next(input);
      record(statusOf(result));
      return result;
    } catch (err) {
      if (!(err instanceof ContinueAsNew)) record(isCancellation(err) ? 'cancelled' : 'error');
      throw err;
    }
  }
}

/** The interceptor factory the SDK calls once per workflow run; only steps are measured. */
export const interceptors = (): WorkflowInterceptors =>
  workflowInfo().workflowType === STEP_WORKFLOW_TYPE ? { inbound: [new StepDuration()] } : {};
