/**
 * A step's line to its agent, which owns every interaction: questions and approvals go up as
 * `stepInteraction` signals and their answers come back as `stepAnswer`; each round's report
 * goes up as a pipelined `stepProgress` signal. A malformed `stepAnswer` (anyone with access to
 * the namespace can send one) is logged and changes nothing — throwing here would wedge the step.
 */
import { condition, getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import { lessSpent, type BudgetLeft } from '../model/llm/budget-left';
import { workflowFailure } from '../contract/failures';
import type { AnswerOf, SpecOf } from '../model/interactions/answer-types';
import type { InteractionKind } from '../model/interactions/interaction-types';
import { parseStepAnswer, parseStepHold } from '../contract/message-payloads';
import {
  nestedBudgetSignal,
  pauseSignal,
  resumeSignal,
  stepAnswerSignal,
  stepHoldSignal,
  stepInteractionSignal,
  stepProgressSignal,
  type StepAnswer,
  type StepProgress,
} from '../contract/messages';
import type { RoundLedger } from '../model/step/round-ledger';
import { StepProgressReporter } from './step-progress';
import { received, UNENCRYPTED_REFUSAL } from '../runtime/unencrypted-payload';

/** Where the link starts: the hold and the budget a previous run (or the agent's input) handed over. */
export interface LinkStart {
  held?: boolean;
  left?: BudgetLeft | undefined;
}

export class AgentLink {
  private readonly answers: Record<string, StepAnswer> = {};
  /** Whether the agent holds this step (paused, over budget): no new model or tool call. */
  private isHeld: boolean;
  /** The last round reported, and the last whose report the agent acknowledged (metered only). */
  private reported = 0;
  private acked = 0;
  /** Workflow ids of nested agents this step is running now; a hold is passed on to them. */
  private readonly subAgents = new Set<string>();
  /** What the tree's budget had left at the agent's last word (absent: no budget, or an older agent). */
  private lastLeft: BudgetLeft | undefined;
  private readonly agent;
  private readonly progress;

  constructor(
    agentId: string,
    private readonly stepId: string,
    /** The agent has a budget: each round's report is acknowledged before the next call starts. */
    private readonly metered: boolean,
    /** What the step spent since its last report: the agent has not counted it yet. */
    private readonly ledger: RoundLedger,
    start: LinkStart = {},
  ) {
    this.agent = getExternalWorkflowHandle(agentId);
    this.progress = new StepProgressReporter(this.agent);
    this.isHeld = start.held === true;
    this.lastLeft = start.left;
  }

  /** Whether the agent holds this step. */
  get held(): boolean {
    return this.isHeld;
  }

  /** What the tree's budget had left at the agent's last word. */
  get left(): BudgetLeft | undefined {
    return this.lastLeft;
  }

  /** A nested agent this step started: a hold of the step is passed on to it while it runs. */
  nestedStarted(workflowId: string): void {
    this.subAgents.add(workflowId);
  }

  /** A nested agent of this step ended. */
  nestedEnded(workflowId: string): void {
    this.subAgents.delete(workflowId);
  }

  /** Registers the `stepAnswer` handler; call first thing in the step. */
  serve(): this {
    setHandler(stepAnswerSignal, (raw) => {
      const sent = received(raw);
      const parsed = sent.refused ? { ok: false as const, error: UNENCRYPTED_REFUSAL } : parseStepAnswer(sent.value);
      if (parsed.ok) this.answers[parsed.value.requestId] = parsed.value;
      else log.warn('stepAnswer signal rejected', { error: parsed.error });
    });
    setHandler(stepHoldSignal, (raw) => {
      const sent = received(raw);
      const parsed = sent.refused ? { ok: false as const, error: UNENCRYPTED_REFUSAL } : parseStepHold(sent.value);
      if (!parsed.ok) return log.warn('stepHold signal rejected', { error: parsed.error });
      const { held, round, left } = parsed.value;
      if (round !== undefined) this.acked = Math.max(this.acked, round);
      if (left !== undefined) {
        this.lastLeft = left;
        // Not an acknowledgement and not a hold: the budget may have been raised. Running nested
        // agents get their new budget before they are resumed.
        if (round === undefined && !held) for (const id of this.subAgents) this.passBudget(id);
      }
      if (held === this.isHeld) return;
      this.isHeld = held;
      for (const id of this.subAgents) this.passHold(id);
    });
    return this;
  }

  /**
   * Whether a new model or tool call must wait: the agent holds the step, or (with a budget)
   * has not yet acknowledged the last report — it may be the one that spent the budget.
   */
  mustWait(): boolean {
    return this.isHeld || (this.metered && this.acked < this.reported);
  }

  /**
   * Waits until a new call may start. Callers test `mustWait()` first and await only then, so a
   * step that never waits runs exactly as before (same replay).
   */
  whenFree(): Promise<void> {
    return condition(() => !this.mustWait());
  }

  /** What a nested agent started now may spend: the budget left less what the step spent since (undefined: no budget). */
  budgetLeft(): BudgetLeft | undefined {
    return this.lastLeft && lessSpent(this.lastLeft, this.ledger.spent());
  }

  /** Tells the nested agent `workflowId` its new budget (the tree's was raised). */
  private passBudget(workflowId: string): void {
    const left = this.budgetLeft();
    if (!left) return;
    getExternalWorkflowHandle(workflowId)
      .signal(nestedBudgetSignal, left)
      .catch((err: unknown) => log.warn('budget not passed to the nested agent', { workflowId, error: String(err) }));
  }

  /** Tells the nested agent `workflowId` of the step's hold (its own tree then holds too). */
  private passHold(workflowId: string): void {
    const signal = this.isHeld ? pauseSignal : resumeSignal;
    getExternalWorkflowHandle(workflowId)
      .signal(signal, { by: `step ${this.stepId}`, reason: 'its parent agent is held' })
      .catch((err: unknown) => log.warn('hold not passed to the nested agent', { workflowId, error: String(err) }));
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
    this.reported = progress.round;
    return this.progress.send(progress);
  }

  /**
   * Sends a cancelled step's last report and waits until it was delivered; call out of the
   * cancelled scope. An agent that is gone already gets nothing (logged).
   */
  async reportLast(progress: StepProgress): Promise<void> {
    await this.agent.signal(stepProgressSignal, progress).catch((err: unknown) => {
      log.warn('last report of the cancelled step not delivered', { stepId: this.stepId, error: String(err) });
    });
  }

  /** Waits until every report was delivered (before the step ends or continues as new). */
  flush(): Promise<void> {
    return this.progress.flush();
  }
}
