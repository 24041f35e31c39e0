/**
 * A step's line to its agent, which owns every interaction: questions and approvals go up as
 * `stepInteraction` signals and their answers come back as `stepAnswer`; each round's report
 * goes up as a pipelined `stepProgress` signal. A malformed `stepAnswer` (anyone with access to
 * the namespace can send one) is logged and changes nothing — throwing here would wedge the step.
 */
import { condition, getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import { workflowFailure } from '../failures';
import type { AnswerOf, SpecOf } from '../interactions/answer-types';
import type { InteractionKind } from '../interactions/interaction-types';
import { parseStepAnswer } from '../message-payloads';
import { stepAnswerSignal, stepInteractionSignal, type StepAnswer, type StepProgress } from '../messages';
import { StepProgressReporter } from './step-progress';

export class AgentLink {
  private readonly answers: Record<string, StepAnswer> = {};
  private readonly agent;
  private readonly progress;

  constructor(
    agentId: string,
    private readonly stepId: string,
  ) {
    this.agent = getExternalWorkflowHandle(agentId);
    this.progress = new StepProgressReporter(this.agent);
  }

  /** Registers the `stepAnswer` handler; call first thing in the step. */
  serve(): this {
    setHandler(stepAnswerSignal, (raw) => {
      const parsed = parseStepAnswer(raw);
      if (parsed.ok) this.answers[parsed.value.requestId] = parsed.value;
      else log.warn('stepAnswer signal rejected', { error: parsed.error });
    });
    return this;
  }

  /**
   * Asks the agent to open an interaction for this step and waits for its answer; an expiry
   * whose policy is `fail` fails the step.
   * @param requestId unique within the step run (the tool call's id).
   */
  async ask<K extends InteractionKind>(requestId: string, spec: SpecOf<K>): Promise<AnswerOf<K>> {
    await this.agent.signal(stepInteractionSignal, { stepId: this.stepId, requestId, spec });
    await condition(() => this.answers[requestId] !== undefined);
    const answer = this.answers[requestId];
    if (!answer) throw new Error('unreachable');
    if (answer.expired === 'fail') {
      throw workflowFailure('INTERACTION_EXPIRED', `${spec.kind} ${answer.interactionId} expired unanswered`);
    }
    // The agent validated the answer against this very interaction's kind.
    return answer.answer as AnswerOf<K>;
  }

  /** Sends a round's report once the previous one was delivered; does not wait for this one. */
  report(progress: StepProgress): Promise<void> {
    return this.progress.send(progress);
  }

  /** Waits until every report was delivered (before the step ends or continues as new). */
  flush(): Promise<void> {
    return this.progress.flush();
  }
}
