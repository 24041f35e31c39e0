/**
 * The step board: the one place a step run's status changes. Every change is checked against
 * the transition table (model/plan/step-transitions.ts) and announced on the timeline; a change the
 * table forbids is ignored and logged, never thrown (a throw would fail the workflow task).
 */
import { logPolicyDecision } from '../model/agent/decision-log';
import { log } from '@temporalio/workflow';
import type { Plan, StepStatus } from '../model/plan/plan-types';
import { canMoveStep, isActiveStep } from '../model/plan/step-transitions';
import { stepsToSkip, type Dependencies } from '../model/plan/scheduler';
import { addUsage, zeroUsage } from '../model/llm/usage';
import { findReusable, type ReusableStep } from '../model/plan/plan-reuse';
import type { StepProgress } from '../contract/messages';
import { workflowTime } from '../base/workflow-time';
import {
  addToolCall,
  noteModel,
  noteStreaming,
  type AgentEvent,
  type AgentState,
  type StepRun,
} from '../model/agent/agent-state';

/** How a step completed, beside its result. */
type CompletedHow = { goalCheck?: string; delivered?: boolean; verified?: boolean; sentBack?: number };

type Announce = (event: Omit<AgentEvent, 'seq' | 'at'>) => void;

/** A run of step `id` that has not started. */
const pendingRun = (id: string, title: string): StepRun => ({
  id,
  title,
  status: 'pending',
  usage: zeroUsage(),
  toolCalls: [],
  rounds: 0,
  attempts: 0,
});

export class StepBoard {
  constructor(
    private readonly state: AgentState,
    private readonly announce: Announce,
  ) {}

  /** The run of step `id`. */
  get(id: string): StepRun | undefined {
    return this.state.steps.find((s) => s.id === id);
  }

  /** Statuses by step id, as the scheduler wants them. */
  statuses(): Record<string, StepStatus> {
    return Object.fromEntries(this.state.steps.map((s) => [s.id, s.status]));
  }

  /** Whether any step waits to start. */
  hasPending(): boolean {
    return this.state.steps.some((s) => s.status === 'pending');
  }

  /** Whether any step's child workflow is running. */
  hasActive(): boolean {
    return this.state.steps.some((s) => isActiveStep(s.status));
  }

  /**
   * Makes `plan` the board: settled runs of the same step ids are kept, the rest start pending —
   * but a step adopted from an earlier turn (`reused`, among `reusable`) starts completed with
   * that step's result, and never runs.
   */
  adopt(plan: Plan, reusable: readonly ReusableStep[] = []): void {
    const previous = this.state.steps;
    this.state.steps = plan.steps.map(
      (step) =>
        // An adopted run stays only while the plan still adopts that same step (a revision may drop it).
        previous.find(
          (p) => p.id === step.id && p.status !== 'pending' && p.reused?.agentId === step.reused?.agentId,
        ) ??
        this.reused(step.id, step.reused && findReusable(reusable, step.reused)) ??
        pendingRun(step.id, step.title),
    );
  }

  /** The completed run of step `id`, adopted from `found` (announced), if found. */
  private reused(id: string, found: ReusableStep | undefined): StepRun | undefined {
    if (!found) return undefined;
    const { agentId, stepId, result } = found;
    this.announce({ type: 'step.finished', stepId: id, message: `${id} reused: step ${stepId} of ${agentId}` });
    const at = workflowTime();
    const done = { status: 'completed' as const, result, reused: { agentId, stepId }, startedAt: at, endedAt: at };
    return { ...pendingRun(id, found.title || id), ...done };
  }

  /** Puts a new pending run on the board (a graph visit), unless one of that id is there. */
  add(id: string, title: string): void {
    if (this.get(id)) return;
    this.state.steps.push(pendingRun(id, title));
  }

  /** Drops settled runs, oldest first, but those `keep` names, until at most `max` settled runs remain. */
  trim(max: number, keep: ReadonlySet<string>): number {
    const droppable = this.state.steps.filter(
      (s) => !keep.has(s.id) && !isActiveStep(s.status) && s.status !== 'pending',
    );
    const drop = new Set(droppable.slice(0, Math.max(0, droppable.length - max)).map((s) => s.id));
    if (drop.size > 0) this.state.steps = this.state.steps.filter((s) => !drop.has(s.id));
    return drop.size;
  }

  /** pending → running: a new attempt starts now. */
  start(id: string): StepRun | undefined {
    const step = this.move(id, 'running');
    if (!step) return undefined;
    step.attempts += 1;
    step.startedAt = workflowTime();
    this.announce({ type: 'step.started', stepId: id, message: `${id} started: ${step.title}` });
    return step;
  }

  /** → completed with its result (and its goal check, or that it delivered after its rounds ran out). */
  complete(id: string, result: string, how: CompletedHow = {}): void {
    const step = this.move(id, 'completed');
    if (!step) return;
    step.result = result;
    if (how.goalCheck !== undefined) step.goalCheck = how.goalCheck;
    if (how.delivered) step.delivered = true;
    if (how.verified !== undefined) step.verified = how.verified;
    if (how.sentBack) step.sentBack = how.sentBack;
    step.endedAt = workflowTime();
    this.announce({ type: 'step.finished', stepId: id, message: `${id} completed` });
  }

  /** → failed (or cancelled, when the child was cancelled) with the error. */
  end(id: string, status: 'failed' | 'cancelled', error: string): void {
    const step = this.move(id, status);
    if (!step) return;
    step.error = error;
    step.endedAt = workflowTime();
    this.announce({ type: 'step.finished', stepId: id, message: `${id} ${status}: ${error}` });
  }

  /** running → waiting: the step (or its failure) waits for a person. */
  await(id: string): void {
    this.move(id, 'waiting');
  }

  /** waiting → running: the person answered a question the running step asked. */
  resume(id: string): void {
    if (this.get(id)?.status === 'waiting') this.move(id, 'running');
  }

  /** A failed step, decided by a person: retry (pending again), skip, or stay failed. */
  decide(id: string, decision: 'retry' | 'skip' | 'abort'): void {
    this.move(id, decision === 'retry' ? 'pending' : decision === 'skip' ? 'skipped' : 'failed');
  }

  /** Skips every pending step that can no longer run because `failedId` did not complete. */
  skipDependents(plan: Dependencies, failedId: string): void {
    for (const id of stepsToSkip(plan, this.statuses())) {
      if (!this.move(id, 'skipped')) continue;
      this.announce({ type: 'step.finished', stepId: id, message: `${id} skipped: it depends on ${failedId}` });
    }
  }

  /**
   * Records a step's round report: rounds, partial result, model, usage (the step's and the
   * agent's total), tool calls and notices. False when no such step is on the board. The budget
   * check that follows is the caller's: usage flows one way, from the report to the board to the meter.
   */
  recordProgress(progress: StepProgress): boolean {
    const step = this.get(progress.stepId);
    if (!step) return false;
    step.rounds = progress.round;
    if (progress.partial !== undefined) step.partial = progress.partial;
    if (progress.model) noteModel(this.state, progress.model);
    noteStreaming(this.state, progress.streamed);
    addUsage(step.usage, progress.usage);
    addUsage(this.state.usage, progress.usage);
    for (const call of progress.toolCalls) {
      addToolCall(step, call);
      logPolicyDecision(this.state, step.id, call);
      this.announce({ type: 'tool.called', stepId: step.id, message: `${call.name} → ${call.outcome}` });
    }
    for (const notice of progress.notices ?? []) this.announce({ ...notice, stepId: step.id });
    return true;
  }

  /** Marks every running or waiting step cancelled (the agent itself was cancelled). */
  cancelActive(): void {
    for (const step of this.state.steps) if (isActiveStep(step.status)) this.move(step.id, 'cancelled');
  }

  private move(id: string, to: StepStatus): StepRun | undefined {
    const step = this.get(id);
    if (!step || step.status === to) return undefined;
    if (!canMoveStep(step.status, to)) {
      log.warn('step status change refused', { stepId: id, from: step.status, to });
      return undefined;
    }
    step.status = to;
    return step;
  }
}
