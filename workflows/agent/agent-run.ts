/**
 * One agent run inside `agentWorkflow`: its settings, the state the `state` query returns, the
 * planner's conversation, and the parts that change the state — the step board (every step
 * status), the hold, the interaction desk (every question to a person), the budget meter and the
 * deadline — each built once with the one context they share (agent-context.ts), in order of
 * need. Phases change here, so visibility follows; how the agent ends is agent-ending.ts's.
 */
import { definitionOfSnapshot } from '../model/agent/definition-snapshot';
import { CancellationScope, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import { Conversations } from '../runtime/conversation';
import { workflowFailure } from '../contract/failures';
import { parseActedRequest, parseStepProgress } from '../contract/message-payloads';
import { recordCancelUpdate, stateQuery, stepProgressSignal, type StepProgress } from '../contract/messages';
import { carryConversation } from '../model/rollover/carry-conversation';
import type { ToolInfo } from '../model/tools/tool-types';
import { overriddenNames } from '../model/prompts/prompt-overrides';
import type { PromptTexts } from '../model/prompts/templates';
import { workflowTime } from '../base/workflow-time';
import { CARRY_VERSION, PLANNER, type AgentCarry, type ResumePoint } from '../model/agent/agent-carry';
import type { AgentSettings } from '../model/agent/agent-input';
import {
  addEvent,
  isTerminalPhase,
  createAgentState,
  stateSince,
  type AgentEvent,
  type AgentPhase,
  type AgentState,
} from '../model/agent/agent-state';
import { AgentHold } from './agent-hold';
import { AgentVisibility } from './agent-visibility';
import type { AgentContext } from '../model/agent/agent-context';
import { AgentEnding } from '../model/agent/agent-ending';
import { BudgetMeter } from './budget-meter';
import { Deadline } from './deadline';
import { InteractionDesk } from './interaction-desk';
import { StepBoard } from './step-board';
import { closeSteering, noteHeard, serveSteering } from './agent-steer';
import { isUnencrypted, received, UNENCRYPTED_REFUSAL } from '../runtime/unencrypted-payload';
import { PATCHES } from '../base/patches';

export class AgentRun {
  readonly state: AgentState;
  readonly conversations = new Conversations();
  readonly agentId = workflowInfo().workflowId;
  readonly board: StepBoard;
  readonly desk: InteractionDesk;
  /** The scope the agent's work runs in; cancelled by a stop or the `cancel` expiry policy. */
  readonly scope = new CancellationScope();
  /** Why the agent ends itself early, when it does (a stop, or the `cancel` expiry policy). */
  readonly ending = new AgentEnding(this.scope);
  /** Pause and budget holds: no new model or tool call while held. */
  readonly hold: AgentHold;
  /** The tree's token meter against the budget. */
  readonly meter: BudgetMeter;
  /** `limits.deadlineMs` on a durable timer. */
  readonly deadline: Deadline;
  private readonly visibility: AgentVisibility;
  /** The operator's prompt texts this agent uses (read at its start, carried); none: the built-ins. */
  prompts?: PromptTexts;

  constructor(
    readonly settings: AgentSettings,
    carry?: AgentCarry,
  ) {
    this.state = carry?.state ?? createAgentState(settings.task);
    // Decided once, at the first run, and carried: the agent's own folder (runs before used the
    // root; a nested agent of such a run shares it, as its parent's steps do).
    if (!carry && !settings.sharedWorkspace && patched(PATCHES.agentWorkspace)) this.state.workspace = 'agent';
    // Which definition it runs, shown with its state (set again after a roll-over, whose state is carried).
    if (settings.definition) this.state.definition = definitionOfSnapshot(settings.definition);
    this.visibility = new AgentVisibility(this.state);
    // Step changes show in the current details at once (plan progress in the Temporal UI).
    this.board = new StepBoard(this.state, (event) => {
      this.event(event);
      this.visibility.refreshDetails();
      if (event.type === 'step.finished') this.visibility.syncSpend(); // spend at step boundaries
    });
    const ctx: AgentContext = {
      agentId: this.agentId,
      settings,
      state: this.state,
      ending: this.ending,
      announce: (event) => this.event(event),
      changed: () => this.visibility.sync(),
      rollOverDue: () => this.rollOverDue(),
    };
    // In order of need: each part takes only parts built before it.
    this.hold = new AgentHold(ctx);
    this.desk = new InteractionDesk(ctx, this.board, carry?.stepRoutes);
    this.meter = new BudgetMeter(ctx, this.hold, this.desk);
    this.deadline = new Deadline(ctx, this.desk);
    if (carry) this.conversations.append(PLANNER, ...carry.planner);
  }

  /**
   * Registers the query and message handlers and re-arms the expiry timers of open interactions
   * a previous run handed over; call first thing in the workflow.
   */
  serve(): this {
    this.desk.serve();
    this.hold.serve();
    this.meter.serve();
    this.deadline.serve();
    this.conversations.serve();
    serveSteering(this);
    setHandler(stateQuery, (args) => stateSince(this.state, args?.afterSeq));
    // Who is about to cancel: state only (no command), read by the agent's end.
    setHandler(
      recordCancelUpdate,
      (raw) => {
        const sent = received(raw);
        const parsed = sent.refused ? undefined : parseActedRequest(sent.value);
        if (parsed?.ok) this.state.cancelRequest = { at: workflowTime(), ...parsed.value };
      },
      {
        validator: (raw: unknown) => {
          if (isUnencrypted(raw)) throw workflowFailure('NOT_ENCRYPTED', `recordCancel: ${UNENCRYPTED_REFUSAL}`);
          const parsed = parseActedRequest(raw);
          if (!parsed.ok) throw workflowFailure('INVALID_INPUT', `recordCancel: ${parsed.error}`);
          if (isTerminalPhase(this.state.phase))
            throw workflowFailure('AGENT_FINISHED', `the agent has ended (${this.state.phase})`);
        },
      },
    );
    setHandler(stepProgressSignal, (raw) => {
      const sent = received(raw);
      const parsed = sent.refused ? { ok: false as const, error: UNENCRYPTED_REFUSAL } : parseStepProgress(sent.value);
      if (parsed.ok) {
        this.progress(parsed.value);
        if (!parsed.value.cancelled) this.meter.acknowledge(parsed.value); // a cancelled step waits for nothing
      } else this.event({ type: 'signal.rejected', message: `stepProgress signal rejected: ${parsed.error}` });
    });
    this.visibility.sync();
    return this;
  }

  /** A step's round report: recorded on the board (and the messages its model heard), then its usage checked against the budget. */
  progress(report: StepProgress): void {
    if (!this.board.recordProgress(report)) return;
    noteHeard(this.state, report.heard);
    this.meter.check();
  }

  /** Adds a timeline event at workflow time. */
  event(event: Omit<AgentEvent, 'seq' | 'at'>): void {
    addEvent(this.state, workflowTime(), event);
  }

  /** Moves to `phase`, keeping search attributes and current details in step. */
  setPhase(phase: AgentPhase): void {
    // No step starts any more.
    if (phase === 'summarizing' || isTerminalPhase(phase)) closeSteering(this);
    if (this.hold.deferPhase(phase)) return; // shown once the hold lifts
    this.state.phase = phase;
    if (isTerminalPhase(phase)) this.visibility.syncSpend(); // the final spend
    this.visibility.sync();
  }

  /**
   * Whether to continue as new at the next safe boundary: the server suggests it (history long
   * or large), or a newer Worker Deployment version became current (the next run starts on it).
   * Both are read from the workflow task, so checking adds no command and old histories replay.
   */
  rollOverDue(): boolean {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.targetWorkerDeploymentVersionChanged;
  }

  /** Takes the prompt texts read at the start (or carried), naming the overridden templates in the state. */
  usePrompts(texts: PromptTexts | undefined): void {
    if (texts === undefined) return;
    this.prompts = texts;
    const overridden = overriddenNames(texts);
    if (overridden.length) this.state.prompts = { overridden };
  }

  /** What the next run needs to resume at `resumeAt`. */
  carry(resumeAt: ResumePoint, tools: ToolInfo[]): AgentCarry {
    return {
      version: CARRY_VERSION,
      resumeAt,
      state: this.state,
      planner: carryConversation(this.conversations.get(PLANNER)),
      tools,
      stepRoutes: this.desk.openRoutes(),
      ...(this.prompts ? { prompts: this.prompts } : {}),
    };
  }
}
