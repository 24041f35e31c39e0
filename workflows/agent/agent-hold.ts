/**
 * The agent's hold: while an operator's `pause` or a spent budget holds it, no new model or
 * tool call starts anywhere in its tree. The agent's own calls wait at `whenFree()`, execution
 * starts no step, and every running step is told by a `stepHold` signal (it waits before its
 * next model or tool call, and passes the hold on to a nested agent it runs). Calls already in
 * flight finish and are counted. Interactions stay answerable: the desk is not held.
 *
 * The hold lives in the state (carried over continue-as-new); the phase shows `paused` and
 * goes back to the phase the agent was in when the last reason lifts.
 */
import { condition, getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import { stepWorkflowId } from '../base/ids';
import { workflowFailure } from '../contract/failures';
import { parseActedRequest, parseHoldRequest } from '../contract/message-payloads';
import {
  pauseSignal,
  pauseUpdate,
  resumeSignal,
  resumeUpdate,
  stepHoldSignal,
  type HoldRequest,
  type StepHold,
} from '../contract/messages';
import { isActiveStep } from '../model/plan/step-transitions';
import type { HOLD_REASONS } from '../model/state/agent-state-schema';
import type { AgentContext } from '../model/agent/agent-context';
import { isTerminalPhase, type AgentState } from '../model/agent/agent-state';
import { treeBudgetLeft } from './budget-in-force';
import { isUnencrypted, received, UNENCRYPTED_REFUSAL } from '../runtime/unencrypted-payload';

/** Why the agent is held. */
export type HoldReason = (typeof HOLD_REASONS)[number];

export class AgentHold {
  constructor(private readonly ctx: AgentContext) {}

  /**
   * Registers the public `pause` and `resume` signals and updates. The updates are how Cairn's
   * HTTP API pauses and resumes: they carry the actor it authenticated, which the timeline and
   * the audit keep; a bad payload is refused by the validator before anything is recorded.
   */
  serve(): this {
    setHandler(pauseSignal, (raw) => this.onSignal('pause', raw));
    setHandler(resumeSignal, (raw) => this.onSignal('resume', raw));
    for (const [update, kind] of [
      [pauseUpdate, 'pause'],
      [resumeUpdate, 'resume'],
    ] as const) {
      setHandler(
        update,
        (raw) => {
          const sent = received(raw);
          const parsed = sent.refused ? undefined : parseActedRequest(sent.value);
          if (!parsed?.ok) return; // the validator refused it already
          if (kind === 'pause') this.hold('pause', parsed.value);
          else this.release('pause', parsed.value);
        },
        {
          validator: (raw: unknown) => {
            if (isUnencrypted(raw)) throw workflowFailure('NOT_ENCRYPTED', `${kind}: ${UNENCRYPTED_REFUSAL}`);
            const parsed = parseActedRequest(raw);
            if (!parsed.ok) throw workflowFailure('INVALID_INPUT', `${kind}: ${parsed.error}`);
            // Ended but still closing (a cancellation winding down): nothing left to hold.
            if (isTerminalPhase(this.ctx.state.phase))
              throw workflowFailure('AGENT_FINISHED', `${kind}: the agent has ended (${this.ctx.state.phase})`);
          },
        },
      );
    }
    return this;
  }

  /** Whether anything holds the agent. */
  held(): boolean {
    return (this.ctx.state.hold?.reasons.length ?? 0) > 0;
  }

  /**
   * Waits until nothing holds the agent. Callers test `held()` first and await only then, so
   * code that was never held runs exactly as it did before holds existed (same replay).
   */
  whenFree(): Promise<void> {
    return condition(() => !this.held());
  }

  /** Holds the agent for `reason` (a no-op if that reason already holds it). */
  hold(reason: HoldReason, request: HoldRequest = {}): void {
    const { state } = this.ctx;
    if (isTerminalPhase(state.phase) || state.hold?.reasons.includes(reason)) return;
    const wasHeld = this.held();
    state.hold ??= { reasons: [], resumePhase: state.phase };
    state.hold.reasons.push(reason);
    if (request.by !== undefined) state.hold.by = request.by;
    if (request.reason !== undefined) state.hold.reason = request.reason;
    if (request.actor !== undefined) state.hold.actor = request.actor;
    state.phase = 'paused';
    const who = request.by ? ` by ${request.by}` : '';
    const why = request.reason ? `: ${request.reason}` : '';
    const actor = request.actor ? { actor: request.actor } : {};
    this.ctx.announce({ type: 'agent.paused', message: `paused (${reason})${who}${why}`, ...actor });
    if (!wasHeld) this.tellSteps(true);
    this.ctx.changed();
  }

  /** Lifts `reason`; when nothing else holds the agent, it goes on where it stopped. */
  release(reason: HoldReason, request: HoldRequest = {}): void {
    const { state } = this.ctx;
    const hold = state.hold;
    if (!hold?.reasons.includes(reason)) return;
    hold.reasons = hold.reasons.filter((r) => r !== reason);
    const who = request.by ? ` by ${request.by}` : '';
    const actor = request.actor ? { actor: request.actor } : {};
    this.ctx.announce({ type: 'agent.resumed', message: `${reason} hold lifted${who}`, ...actor });
    if (hold.reasons.length > 0) return;
    delete state.hold;
    if (!isTerminalPhase(state.phase)) state.phase = hold.resumePhase;
    this.tellSteps(false);
    this.ctx.changed();
  }

  /** The agent ends (stopped, cancelled, failed): the hold goes without resuming anything. */
  drop(): void {
    delete this.ctx.state.hold;
  }

  /** While held, a phase change is remembered for the resume instead of shown. */
  deferPhase(phase: AgentState['phase']): boolean {
    const hold = this.ctx.state.hold;
    if (!hold || isTerminalPhase(phase)) return false;
    hold.resumePhase = phase;
    return true;
  }

  private onSignal(kind: 'pause' | 'resume', raw: unknown): void {
    const sent = received(raw);
    const parsed = sent.refused ? { ok: false as const, error: UNENCRYPTED_REFUSAL } : parseHoldRequest(sent.value);
    if (!parsed.ok) {
      this.ctx.announce({ type: 'signal.rejected', message: `${kind} signal rejected: ${parsed.error}` });
      return;
    }
    if (kind === 'pause') this.hold('pause', parsed.value);
    else this.release('pause', parsed.value);
  }

  /** Answers a metered step's report of `round` with the hold as it stands now. */
  acknowledge(stepId: string, round: number): void {
    this.tell(stepId, { held: this.held(), round });
  }

  /** Tells every running or waiting step what the budget has left now (a nested agent's budget changed). */
  tellBudget(): void {
    this.tellSteps(this.held());
  }

  /** Sends every running or waiting step the new hold. */
  private tellSteps(held: boolean): void {
    for (const step of this.ctx.state.steps) if (isActiveStep(step.status)) this.tell(step.id, { held });
  }

  private tell(stepId: string, hold: StepHold): void {
    // What the tree's budget has left, told to the steps with every word on their hold.
    const left = treeBudgetLeft(this.ctx.state, this.ctx.settings.limits);
    const handle = getExternalWorkflowHandle(stepWorkflowId(this.ctx.agentId, stepId));
    handle.signal(stepHoldSignal, left ? { ...hold, left } : hold).catch((err: unknown) => {
      log.warn('stepHold signal not delivered', { stepId, error: String(err) });
    });
  }
}
