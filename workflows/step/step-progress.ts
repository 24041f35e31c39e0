/**
 * Live progress from a step to its agent, pipelined: a round's report is sent as a signal
 * without waiting for the agent to receive it, so the next model call is scheduled in the
 * same workflow task (one server round trip less per round). The previous report is awaited
 * before the next is sent — usually long done by then — so a failed signal still fails the
 * step, and `flush` waits for the last one before the step ends or continues as new.
 */
import type { ExternalWorkflowHandle } from '@temporalio/workflow';
import { stepProgressSignal, type StepProgress } from '../contract/messages';

export class StepProgressReporter {
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly agent: ExternalWorkflowHandle) {}

  /** Sends `progress` once the previous report was delivered; does not wait for this one. */
  async send(progress: StepProgress): Promise<void> {
    await this.pending;
    this.pending = this.agent.signal(stepProgressSignal, progress);
  }

  /** Waits until every report was delivered. */
  flush(): Promise<void> {
    return this.pending;
  }
}
