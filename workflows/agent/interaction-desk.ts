/**
 * The one owner of an agent's interactions: opens them (for the agent or a step that asked),
 * checks (answer-check.ts) and records answers of the `answer` update and signal, routes each to
 * its step, and leaves unanswered ones to their expiry policy (interaction-expiry.ts).
 */
import { condition, getExternalWorkflowHandle, patched, setHandler } from '@temporalio/workflow';
import { answerRejection, workflowFailure } from '../contract/failures';
import { stepWorkflowId } from '../base/ids';
import type { AnswerOf, InteractionOf, SpecOf } from '../model/interactions/answer-types';
import { whoAnswers } from '../model/interactions/answer-roles';
import type {
  Answer,
  AnswerCheck,
  AnswerInput,
  Interaction,
  InteractionKind,
} from '../model/interactions/interaction-types';
import { parseAnswerInput, parseStepInteraction } from '../contract/message-payloads';
import { untrustedActor } from './signal-actor';
import { answerSignal, answerUpdate, stepAnswerSignal, stepInteractionSignal } from '../contract/messages';
import type { AnswerAccepted } from '../contract/messages';
import { checkEditedPlanValue, checkPlanValue } from '../model/plan/check-plan';
import { PATCHES } from '../base/patches';
import { workflowTime } from '../base/workflow-time';
import { armExpiry, type Forward } from './interaction-expiry';
import type { StepRequestRoute } from '../model/agent/agent-carry';
import { openInteraction, openInteractions, recordAnswer } from '../model/agent/agent-state';
import type { AgentContext } from '../model/agent/agent-context';
import type { StepBoard } from './step-board';
import { isUnencrypted, received, UNENCRYPTED_REFUSAL } from '../runtime/unencrypted-payload';
import { checkAnswer, refusedAsPerson, signalPlanCheck, type PlanChecker } from './answer-check';

export class InteractionDesk {
  constructor(
    private readonly ctx: AgentContext,
    private readonly board: StepBoard,
    /** Where each open step interaction's answer goes, by interaction id (carried over). */
    readonly routes: Record<string, StepRequestRoute> = {},
  ) {}

  /** Registers the answer update and signals, and re-arms the timers of carried interactions. */
  serve(): void {
    for (const open of openInteractions(this.ctx.state)) armExpiry(this.ctx, open, this.forwarder);
    setHandler(
      answerUpdate,
      (raw) => {
        // An unencrypted answer never gets here live (the validator refused it); in replay it may.
        const sent = received(raw);
        if (sent.refused) throw workflowFailure('NOT_ENCRYPTED', `answer: ${UNENCRYPTED_REFUSAL}`);
        return this.accept(sent.value as AnswerInput);
      },
      {
        validator: (input: unknown) => {
          if (isUnencrypted(input)) throw workflowFailure('NOT_ENCRYPTED', `answer: ${UNENCRYPTED_REFUSAL}`);
          // A person's edited plan is checked strictly here; the handler takes what passed.
          const { input: answer, check } = this.vet(input, checkEditedPlanValue);
          if (!check.ok) throw answerRejection(check);
          // Validators do not run on replay: the people rule needs no patch here.
          const person = answer && refusedAsPerson(this.ctx.state, answer);
          if (person && !person.ok) throw answerRejection(person);
        },
      },
    );
    // Signals may come from anywhere (the Temporal UI's form, the CLI): a bad payload is
    // recorded as a rejected event and changes nothing — it never throws in the workflow.
    setHandler(answerSignal, async (raw) => {
      const sent = received(raw);
      if (sent.refused) {
        this.ctx.announce({ type: 'signal.rejected', message: `answer signal rejected: ${UNENCRYPTED_REFUSAL}` });
        return;
      }
      const { input, check: valid } = this.vet(untrustedActor(sent.value), signalPlanCheck);
      // A signal names nobody Cairn identified: it is not one of several approvals. Runs that
      // counted one before replay as they ran (the marker is recorded only where it refuses).
      const person = input && valid.ok ? refusedAsPerson(this.ctx.state, input) : undefined;
      const check = person && patched(PATCHES.approvalPeople) ? person : valid;
      if (check.ok && input) return void (await this.accept(input));
      if (check.ok) return;
      const to = input ? ` to ${input.interactionId}` : '';
      this.ctx.announce({ type: 'answer.rejected', message: `answer${to} rejected: ${check.error}` });
    });
    setHandler(stepInteractionSignal, (raw) => {
      const sent = received(raw);
      if (sent.refused) return this.refuseStepInteraction(UNENCRYPTED_REFUSAL);
      const parsed = parseStepInteraction(sent.value);
      if (!parsed.ok) return this.refuseStepInteraction(parsed.error);
      const { stepId, requestId, spec } = parsed.value;
      if (!this.board.get(stepId)) return this.refuseStepInteraction(`stepId: no step "${stepId}" in the plan`);
      this.board.await(stepId);
      this.routes[this.open(spec, stepId).id] = { stepId, requestId };
    });
  }

  /** Opens an interaction of kind `K` and waits for its answer (or its expiry policy). */
  async ask<K extends InteractionKind>(spec: SpecOf<K>, stepId?: string): Promise<AnswerOf<K>> {
    const interaction = this.open<K>(spec, stepId);
    const answer = await this.answerOf(interaction, false);
    if (answer === 'roll-over') throw new Error('unreachable: no roll-over asked for');
    return answer;
  }

  /**
   * Waits for the answer to an open interaction — or, with `mayRollOver`, until the server
   * suggests continue-as-new while it is still open (`'roll-over'`): the next run waits on.
   */
  async answerOf<K extends InteractionKind>(
    interaction: InteractionOf<K>,
    mayRollOver: boolean,
  ): Promise<AnswerOf<K> | 'roll-over'> {
    await condition(() => interaction.status !== 'open' || (mayRollOver && this.ctx.rollOverDue()));
    if (interaction.status === 'open') return 'roll-over';
    if (!interaction.answer) {
      const what = `interaction ${interaction.id} (${interaction.kind}) expired unanswered`;
      throw workflowFailure('INTERACTION_EXPIRED', what);
    }
    // validateAnswer (or expiryAnswer) checked the answer against this very kind.
    return interaction.answer as AnswerOf<K>;
  }

  /** The open interaction of kind `K`, if one is (the plan check a previous run opened). */
  findOpen<K extends InteractionKind>(kind: K): InteractionOf<K> | undefined {
    return openInteractions(this.ctx.state).find((i): i is InteractionOf<K> => i.kind === kind);
  }

  /** Opens an interaction (with its expiry timer when the agent has a timeout). */
  open<K extends InteractionKind>(spec: SpecOf<K>, stepId?: string): InteractionOf<K> {
    const interaction = openInteraction(this.ctx.state, workflowTime(), spec, stepId) as InteractionOf<K>;
    Object.assign(interaction, whoAnswers(interaction, this.ctx.settings));
    if (this.ctx.settings.interactionTimeout)
      interaction.expiresAt = interaction.createdAt + this.ctx.settings.interactionTimeout.afterMs;
    armExpiry(this.ctx, interaction, this.forwarder);
    this.ctx.changed();
    return interaction;
  }

  /** The agent ends without them (cancelled or failed): every open interaction expires, unanswered. */
  closeAll(reason: string): void {
    for (const interaction of openInteractions(this.ctx.state)) {
      interaction.status = 'expired';
      const { id } = interaction;
      this.ctx.announce({ type: 'interaction.expired', interactionId: id, message: `${id} closed: ${reason}` });
    }
  }

  /** The routes of step interactions still open, for the next run. */
  openRoutes(): Record<string, StepRequestRoute> {
    const open = new Set(openInteractions(this.ctx.state).map((i) => i.id));
    return Object.fromEntries(Object.entries(this.routes).filter(([id]) => open.has(id)));
  }

  /** Parses an answer payload, then checks it against the interaction it names (a plan with the turn's reusable steps). */
  private vet(raw: unknown, planCheck: PlanChecker): { input?: AnswerInput; check: AnswerCheck } {
    const parsed = parseAnswerInput(raw);
    const check = (value: unknown) => planCheck(value, this.ctx.settings.context?.reusable);
    return parsed.ok
      ? { input: parsed.value, check: checkAnswer(this.ctx.state, parsed.value, check) }
      : { check: parsed };
  }

  private refuseStepInteraction(error: string): void {
    this.ctx.announce({ type: 'signal.rejected', message: `stepInteraction signal rejected: ${error}` });
  }

  /** Records a valid answer (the audit record) and forwards a step's answer to the step. */
  private async accept(input: AnswerInput): Promise<AnswerAccepted> {
    const check = checkAnswer(this.ctx.state, input, (v) => checkPlanValue(v, this.ctx.settings.context?.reusable));
    if (!check.ok) throw answerRejection(check);
    const interaction = this.ctx.state.interactions.find((i) => i.id === input.interactionId);
    if (!interaction) throw workflowFailure('NOT_OPEN', `no interaction "${input.interactionId}"`);
    // No actor: the answer came straight to Temporal, past Cairn's authentication.
    const actor = input.actor ?? { id: input.by ?? 'unknown', roles: [], method: 'temporal-signal' as const };
    if (interaction.kind === 'tool.approval' && (interaction.approvers ?? 1) > 1) {
      const approve = 'decision' in check.answer && check.answer.decision === 'approve';
      if (approve) interaction.approvals = [...(interaction.approvals ?? []), { actor, at: workflowTime() }];
      const given = interaction.approvals?.length ?? 0;
      if (approve && given < (interaction.approvers ?? 1)) {
        // Not enough distinct people yet: the approval stays open for the next one.
        const message = `${interaction.id} approved by ${actor.id} (${given} of ${interaction.approvers})`;
        this.ctx.announce({ type: 'interaction.approved', interactionId: interaction.id, message });
        this.ctx.changed();
        return { interactionId: interaction.id, answer: check.answer };
      }
    }
    recordAnswer(this.ctx.state, workflowTime(), interaction, check.answer, input.by, actor);
    this.ctx.changed();
    await this.forward(interaction, check.answer, input.by !== undefined ? { by: input.by } : {});
    return { interactionId: interaction.id, answer: check.answer };
  }

  /** `forward`, for the expiry timers. */
  private readonly forwarder: Forward = (interaction, answer, extra) => this.forward(interaction, answer, extra);

  /** Sends the answer to the step that asked, if a step did. */
  private async forward(interaction: Interaction, answer: Answer, extra: { by?: string; expired?: 'fail' }) {
    const route = this.routes[interaction.id];
    if (!route) return;
    this.board.resume(route.stepId);
    await getExternalWorkflowHandle(stepWorkflowId(this.ctx.agentId, route.stepId)).signal(stepAnswerSignal, {
      requestId: route.requestId,
      interactionId: interaction.id,
      answer,
      ...extra,
    });
  }
}
