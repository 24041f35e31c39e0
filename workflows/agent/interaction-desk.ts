/**
 * The interaction desk: the one owner of an agent's interactions. It opens them (for the agent
 * or for a step that asked), validates and records answers from the `answer` update and signal,
 * routes an answer to the step that asked, resolves unanswered ones by the expiry policy, and
 * keeps each answered one as an audit record. `ask(spec)` opens one and returns exactly that
 * kind's answer.
 */
import { condition, getExternalWorkflowHandle, patched, setHandler } from '@temporalio/workflow';
import { answerRejection, workflowFailure } from '../failures';
import { stepWorkflowId } from '../ids';
import type { AnswerOf, InteractionOf, SpecOf } from '../interactions/answer-types';
import { missingRole, roleFor } from '../interactions/answer-roles';
import { expiryAnswer } from '../interactions/expiry-answer';
import type { Answer, AnswerCheck, AnswerInput, Interaction, InteractionKind } from '../interactions/interaction-types';
import { validateAnswer } from '../interactions/validate-answer';
import { parseAnswerInput, parseStepInteraction } from '../message-payloads';
import { untrustedActor } from './signal-actor';
import { answerSignal, answerUpdate, stepAnswerSignal, stepInteractionSignal, type AnswerAccepted } from '../messages';
import { checkPlanValue } from '../plan/check-plan';
import { workflowTime } from '../workflow-time';
import { awaitExpiry } from './interaction-expiry';
import type { StepRequestRoute } from './agent-carry';
import type { AgentSettings } from './agent-input';
import { openInteraction, openInteractions, recordAnswer, type AgentEvent, type AgentState } from './agent-state';
import type { StepBoard } from './step-board';
import { isUnencrypted, received, UNENCRYPTED_REFUSAL } from '../unencrypted-payload';
import { PATCHES } from '../patches';
import { approvesForSeveral, notAnotherPerson } from './distinct-approvers';

type ExpiryPolicy = NonNullable<AgentSettings['interactionTimeout']>['onExpiry'];

/** What the desk needs from the agent around it. */
export interface DeskContext {
  agentId: string;
  state: AgentState;
  timeout: AgentSettings['interactionTimeout'];
  /** Who may answer what (the agent input's `answerRoles`). */
  answerRoles: AgentSettings['answerRoles'];
  board: StepBoard;
  announce(event: Omit<AgentEvent, 'seq' | 'at'>): void;
  /** Called after every change to interactions (search attributes, current details). */
  changed(): void;
  /** The `cancel` expiry policy: stop the whole agent, saying why. */
  cancelAgent(reason: string): void;
  /** Whether the server suggests continuing as new. */
  rollOverDue(): boolean;
}

export class InteractionDesk {
  constructor(
    private readonly ctx: DeskContext,
    /** Where each open step interaction's answer goes, by interaction id (carried over). */
    readonly routes: Record<string, StepRequestRoute> = {},
  ) {}

  /** Registers the answer update and signals, and re-arms the timers of carried interactions. */
  serve(): void {
    for (const open of openInteractions(this.ctx.state)) this.arm(open);
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
          const { input: answer, check } = this.vet(input);
          if (!check.ok) throw answerRejection(check);
          // Validators do not run on replay: the people rule needs no patch here.
          const person = answer && this.notAnotherPerson(answer);
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
      const { input, check: valid } = this.vet(untrustedActor(sent.value));
      // A signal names nobody Cairn identified: it is not one of several approvals. Runs that
      // counted one before replay as they ran (the marker is recorded only where it refuses).
      const person = input && valid.ok ? this.notAnotherPerson(input) : undefined;
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
      if (!this.ctx.board.get(stepId)) return this.refuseStepInteraction(`stepId: no step "${stepId}" in the plan`);
      this.ctx.board.await(stepId);
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
    const role = interaction.role ?? roleFor(interaction.kind, this.ctx.answerRoles);
    if (role !== undefined) interaction.role = role;
    if (this.ctx.timeout) interaction.expiresAt = interaction.createdAt + this.ctx.timeout.afterMs;
    this.arm(interaction);
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

  /** Parses an answer payload, then checks it against the interaction it names. */
  private vet(raw: unknown): { input?: AnswerInput; check: AnswerCheck } {
    const parsed = parseAnswerInput(raw);
    return parsed.ok ? { input: parsed.value, check: this.check(parsed.value) } : { check: parsed };
  }

  private refuseStepInteraction(error: string): void {
    this.ctx.announce({ type: 'signal.rejected', message: `stepInteraction signal rejected: ${error}` });
  }

  private check(input: AnswerInput): AnswerCheck {
    const interaction = this.ctx.state.interactions.find((i) => i.id === input.interactionId);
    const check = validateAnswer(interaction, input, checkPlanValue);
    if (!check.ok || !interaction) return check;
    const rejecting =
      interaction.kind === 'tool.approval' && 'decision' in check.answer && check.answer.decision === 'reject';
    const missing = missingRole(interaction, input, rejecting);
    if (missing !== undefined) {
      const error = `answering ${interaction.id} (${interaction.kind}) needs the role ${missing}`;
      return { ok: false, code: 'ROLE_REQUIRED', field: 'interactionId', error };
    }
    if (interaction.kind !== 'tool.approval' || rejecting) return check;
    return sameApprover(interaction, input) ?? check;
  }

  /** For an approval several people must give: the refusal of one that is no further person (distinct-approvers.ts). */
  private notAnotherPerson(input: AnswerInput): AnswerCheck | undefined {
    const interaction = this.ctx.state.interactions.find((i) => i.id === input.interactionId);
    return approvesForSeveral(interaction, input) ? notAnotherPerson(interaction, input) : undefined;
  }

  /** Records a valid answer (the audit record) and forwards a step's answer to the step. */
  private async accept(input: AnswerInput): Promise<AnswerAccepted> {
    const check = this.check(input);
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

  /** Sends the answer to the step that asked, if a step did. */
  private async forward(interaction: Interaction, answer: Answer, extra: { by?: string; expired?: 'fail' }) {
    const route = this.routes[interaction.id];
    if (!route) return;
    this.ctx.board.resume(route.stepId);
    await getExternalWorkflowHandle(stepWorkflowId(this.ctx.agentId, route.stepId)).signal(stepAnswerSignal, {
      requestId: route.requestId,
      interactionId: interaction.id,
      answer,
      ...extra,
    });
  }

  /** Starts the expiry timers of an open interaction, when the agent has a timeout. */
  private arm(interaction: Interaction): void {
    const { timeout } = this.ctx;
    if (!timeout) return;
    const remind = () => {
      const message = `${interaction.id} still waits`;
      this.ctx.announce({ type: 'interaction.reminder', interactionId: interaction.id, message });
    };
    void awaitExpiry(interaction, timeout, remind).then((due) =>
      due ? this.expire(interaction, timeout.onExpiry) : undefined,
    );
  }

  private async expire(interaction: Interaction, policy: ExpiryPolicy): Promise<void> {
    interaction.status = 'expired';
    const { id } = interaction;
    this.ctx.announce({ type: 'interaction.expired', interactionId: id, message: `${id} expired (${policy})` });
    if (policy === 'cancel') return this.ctx.cancelAgent(`${id} (${interaction.kind}) expired unanswered`);
    if (policy !== 'fail') {
      interaction.answer = expiryAnswer(interaction, policy);
      interaction.by = `policy:${policy}`;
      interaction.answeredAt = workflowTime();
    }
    this.ctx.changed();
    const answer = interaction.answer ?? { text: '' };
    await this.forward(interaction, answer, policy === 'fail' ? { expired: 'fail' } : {});
  }
}

/** For an approval that needs several people: refused when this one already approved. */
function sameApprover(
  interaction: Extract<Interaction, { kind: 'tool.approval' }>,
  input: AnswerInput,
): AnswerCheck | undefined {
  const who = input.actor?.id ?? input.by ?? 'unknown';
  if ((interaction.approvals ?? []).some((a) => a.actor.id === who))
    return {
      ok: false,
      code: 'SAME_APPROVER',
      field: 'interactionId',
      error: `${who} already approved ${interaction.id}; it needs ${interaction.approvers ?? 1} different people`,
    };
  return undefined;
}
