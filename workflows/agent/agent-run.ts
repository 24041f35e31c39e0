/**
 * One agent run's live context inside `agentWorkflow`: the state the `state` query returns,
 * the settings, the planner's conversation, and everything that touches interactions —
 * opening them, validating and recording answers (update and signal), and routing answers to
 * the step that asked. Phase changes keep the search attributes and current details current.
 */
import {
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { Conversations } from '../conversation';
import { carryConversation } from '../rollover/carry-conversation';
import type { ToolInfo } from '../tools/tool-types';
import { PLANNER, type AgentCarry, type ResumePoint, type StepRequestRoute } from './agent-carry';
import { validateAnswer } from '../interactions/validate-answer';
import { expiryAnswer } from '../interactions/expiry-answer';
import type { Answer, AnswerCheck, AnswerInput, Interaction, InteractionSpec } from '../interactions/interaction-types';
import {
  answerSignal,
  answerUpdate,
  stateQuery,
  stepInteractionSignal,
  stepAnswerSignal,
  stepProgressSignal,
  type AnswerAccepted,
  type StepInteractionRequest,
  type StepProgress,
} from '../messages';
import { parseAnswerInput, parseStepInteraction, parseStepProgress } from '../message-payloads';
import { checkPlanValue } from '../plan/check-plan';
import { addUsage } from '../usage';
import { stepWorkflowId } from '../ids';
import { AgentAwaitingInputKey, AgentPhaseKey } from '../search-attributes';
import type { AgentSettings } from './agent-input';
import {
  addEvent,
  addToolCall,
  createAgentState,
  noteModel,
  openInteraction,
  openInteractions,
  recordAnswer,
  stateSince,
  stepRun,
  type AgentEvent,
  type AgentPhase,
  type AgentState,
} from './agent-state';
import { progressMarkdown } from './progress-markdown';
import { workflowTime } from '../workflow-time';
import { answerRejection, workflowFailure } from '../failures';

type InteractionTimeout = NonNullable<AgentSettings['interactionTimeout']>;

export class AgentRun {
  readonly state: AgentState;
  readonly conversations = new Conversations();
  readonly agentId = workflowInfo().workflowId;
  private readonly stepRoutes: Record<string, StepRequestRoute>;
  private visible = '';
  /** The scope the agent's work runs in; cancelled by the `cancel` expiry policy. */
  readonly scope = new CancellationScope();
  /** Why the agent stopped itself, when it did. */
  stopReason: string | undefined;
  /** Expiry timers of open interactions. */
  private readonly watchers: Promise<void>[] = [];

  constructor(
    readonly settings: AgentSettings,
    carry?: AgentCarry,
  ) {
    this.state = carry?.state ?? createAgentState(settings.task);
    this.stepRoutes = carry?.stepRoutes ?? {};
    if (carry) this.conversations.append(PLANNER, ...carry.planner);
  }

  /**
   * Registers the query, signal and update handlers and re-arms the expiry timers of open
   * interactions a previous run handed over; call first thing in the workflow.
   */
  serve(): this {
    const timeout = this.settings.interactionTimeout;
    if (timeout) for (const open of openInteractions(this.state)) this.watchers.push(this.watch(open, timeout));
    this.conversations.serve();
    setHandler(stateQuery, (args) => stateSince(this.state, args?.afterSeq));
    setHandler(answerUpdate, (input) => this.accept(input), {
      validator: (input: unknown) => {
        const parsed = parseAnswerInput(input);
        const check = parsed.ok ? this.check(parsed.value) : parsed;
        if (!check.ok) throw answerRejection(check);
      },
    });
    // Signals may come from anywhere (the Temporal UI's form, the CLI): a bad payload is
    // recorded as a rejected event and changes nothing — it never throws in the workflow.
    setHandler(answerSignal, async (raw) => {
      const parsed = parseAnswerInput(raw);
      const input = parsed.ok ? parsed.value : undefined;
      const check = input ? this.check(input) : parsed;
      if (input && check.ok) return void (await this.accept(input));
      if (!check.ok) {
        const to = input ? ` to ${input.interactionId}` : '';
        this.event({ type: 'answer.rejected', message: `answer${to} rejected: ${check.error}` });
      }
    });
    setHandler(stepInteractionSignal, (raw) => {
      const parsed = parseStepInteraction(raw);
      if (!parsed.ok) return this.rejectSignal(stepInteractionSignal.name, parsed.error);
      if (!stepRun(this.state, parsed.value.stepId)) {
        return this.rejectSignal(stepInteractionSignal.name, `stepId: no step "${parsed.value.stepId}" in the plan`);
      }
      this.openForStep(parsed.value);
    });
    setHandler(stepProgressSignal, (raw) => {
      const parsed = parseStepProgress(raw);
      if (parsed.ok) this.recordProgress(parsed.value);
      else this.rejectSignal(stepProgressSignal.name, parsed.error);
    });
    this.syncVisibility();
    return this;
  }

  /** Records a signal whose payload was refused; nothing else changes. */
  private rejectSignal(name: string, error: string): void {
    this.event({ type: 'signal.rejected', message: `${name} signal rejected: ${error}` });
  }

  /** Adds a timeline event at workflow time. */
  event(event: Omit<AgentEvent, 'seq' | 'at'>): void {
    addEvent(this.state, workflowTime(), event);
  }

  /** Moves to `phase`, keeping search attributes and current details in step. */
  setPhase(phase: AgentPhase): void {
    this.state.phase = phase;
    this.syncVisibility();
  }

  /** Opens an agent-level interaction and waits for its answer (or its expiry policy). */
  async ask(spec: InteractionSpec, stepId?: string): Promise<Answer> {
    const answer = await this.answerOf(this.open(spec, stepId), false);
    if (answer === 'roll-over') throw new Error('unreachable: no roll-over asked for');
    return answer;
  }

  /**
   * Waits for the answer to an open interaction — or, with `mayRollOver`, until the server
   * suggests continue-as-new while it is still open (`'roll-over'`): the next run waits on.
   */
  async answerOf(interaction: Interaction, mayRollOver: boolean): Promise<Answer | 'roll-over'> {
    await condition(() => interaction.status !== 'open' || (mayRollOver && this.rollOverDue()));
    if (interaction.status === 'open') return 'roll-over';
    if (!interaction.answer) {
      throw workflowFailure(
        'INTERACTION_EXPIRED',
        `interaction ${interaction.id} (${interaction.kind}) expired unanswered`,
      );
    }
    return interaction.answer;
  }

  /** Opens an interaction (with its expiry timer when the agent has a timeout). */
  open(spec: InteractionSpec, stepId?: string): Interaction {
    const interaction = openInteraction(this.state, workflowTime(), spec, stepId);
    const timeout = this.settings.interactionTimeout;
    if (timeout) {
      interaction.expiresAt = interaction.createdAt + timeout.afterMs;
      this.watchers.push(this.watch(interaction, timeout));
    }
    this.syncVisibility();
    return interaction;
  }

  /**
   * Durable timers (visible in history with a summary): remind, then expire by policy. Times
   * count from the interaction's creation, so a run that inherits it waits only what is left.
   */
  private async watch(interaction: Interaction, timeout: InteractionTimeout) {
    const closed = () => interaction.status !== 'open';
    const remindAt =
      timeout.remindAfterMs !== undefined && timeout.remindAfterMs < timeout.afterMs
        ? interaction.createdAt + timeout.remindAfterMs
        : undefined;
    if (remindAt !== undefined && remindAt > workflowTime()) {
      if (await condition(closed, remindAt - workflowTime(), { summary: `remind ${interaction.id}` })) return;
      this.event({
        type: 'interaction.reminder',
        interactionId: interaction.id,
        message: `${interaction.id} still waits`,
      });
    }
    const left = Math.max(1, interaction.createdAt + timeout.afterMs - workflowTime());
    if (await condition(closed, left, { summary: `expire ${interaction.id}` })) return;
    await this.expire(interaction, timeout.onExpiry);
  }

  private async expire(interaction: Interaction, policy: 'reject' | 'default' | 'fail' | 'cancel'): Promise<void> {
    interaction.status = 'expired';
    if (policy === 'cancel') {
      this.event({
        type: 'interaction.expired',
        interactionId: interaction.id,
        message: `${interaction.id} expired (cancel)`,
      });
      this.stopReason = `${interaction.id} (${interaction.kind}) expired unanswered`;
      this.scope.cancel(); // steps and their calls stop as on a cancellation request
      return;
    }
    if (policy !== 'fail') {
      interaction.answer = expiryAnswer(interaction, policy);
      interaction.by = `policy:${policy}`;
      interaction.answeredAt = workflowTime();
    }
    this.event({
      type: 'interaction.expired',
      interactionId: interaction.id,
      message: `${interaction.id} expired (${policy})`,
    });
    this.syncVisibility();
    const route = this.stepRoutes[interaction.id];
    if (!route) return;
    const step = stepRun(this.state, route.stepId);
    if (step?.status === 'waiting') step.status = 'running';
    await getExternalWorkflowHandle(this.stepWorkflowId(route.stepId)).signal(stepAnswerSignal, {
      requestId: route.requestId,
      interactionId: interaction.id,
      answer: interaction.answer ?? { text: '' },
      ...(policy === 'fail' ? { expired: 'fail' as const } : {}),
    });
  }

  /** Validates an answer against the open interaction it names. */
  check(input: AnswerInput): AnswerCheck {
    const interaction = this.state.interactions.find((i) => i.id === input.interactionId);
    return validateAnswer(interaction, input, checkPlanValue);
  }

  /** Records a valid answer; a step's answer is forwarded to the step that asked. */
  private async accept(input: AnswerInput): Promise<AnswerAccepted> {
    const check = this.check(input);
    if (!check.ok) throw answerRejection(check);
    const interaction = this.state.interactions.find((i) => i.id === input.interactionId);
    if (!interaction) throw workflowFailure('NOT_OPEN', `no interaction "${input.interactionId}"`);
    recordAnswer(this.state, workflowTime(), interaction, check.answer, input.by);
    this.syncVisibility();
    const route = this.stepRoutes[interaction.id];
    if (route) {
      const step = stepRun(this.state, route.stepId);
      if (step?.status === 'waiting') step.status = 'running';
      await getExternalWorkflowHandle(this.stepWorkflowId(route.stepId)).signal(stepAnswerSignal, {
        requestId: route.requestId,
        interactionId: interaction.id,
        answer: check.answer,
        ...(input.by !== undefined ? { by: input.by } : {}),
      });
    }
    return { interactionId: interaction.id, answer: check.answer };
  }

  private openForStep(request: StepInteractionRequest): void {
    const step = stepRun(this.state, request.stepId);
    if (step) step.status = 'waiting';
    const interaction = this.open(request.spec, request.stepId);
    this.stepRoutes[interaction.id] = { stepId: request.stepId, requestId: request.requestId };
  }

  /** Records a step's round report (usage, tool calls) in the state. */
  recordProgress(progress: StepProgress): void {
    const step = stepRun(this.state, progress.stepId);
    if (!step) return;
    step.rounds = progress.round;
    if (progress.model) noteModel(this.state, progress.model);
    addUsage(step.usage, progress.usage);
    addUsage(this.state.usage, progress.usage);
    for (const call of progress.toolCalls) {
      addToolCall(step, call);
      this.event({ type: 'tool.called', stepId: step.id, message: `${call.name} → ${call.outcome}` });
    }
  }

  /** Whether the server suggests continuing as new (history long or large). */
  rollOverDue(): boolean {
    return workflowInfo().continueAsNewSuggested;
  }

  /** What the next run needs to resume at `resumeAt`. */
  carry(resumeAt: ResumePoint, tools: ToolInfo[]): AgentCarry {
    const open = new Set(openInteractions(this.state).map((i) => i.id));
    return {
      resumeAt,
      state: this.state,
      planner: carryConversation(this.conversations.get(PLANNER)),
      tools,
      stepRoutes: Object.fromEntries(Object.entries(this.stepRoutes).filter(([id]) => open.has(id))),
    };
  }

  /** The child workflow id of a step (DESIGN §5). */
  stepWorkflowId(stepId: string): string {
    return stepWorkflowId(this.agentId, stepId);
  }

  private syncVisibility(): void {
    const awaiting = openInteractions(this.state).length > 0;
    // Upsert only on change: each upsert is a history event.
    if (this.visible !== `${this.state.phase}/${awaiting}`) {
      this.visible = `${this.state.phase}/${awaiting}`;
      upsertSearchAttributes([
        { key: AgentPhaseKey, value: this.state.phase },
        { key: AgentAwaitingInputKey, value: awaiting },
      ]);
    }
    setCurrentDetails(progressMarkdown(this.state));
  }
}
