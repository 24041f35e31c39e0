/**
 * The one loop that runs an agent's steps as child workflows, for plans and graphs alike: it
 * starts what its policy says is ready (up to `maxParallelSteps` at once), settles each step as it
 * ends — progress, the board, the failure policy (`fail` aborts, `continue` skips, `ask` lets a
 * person decide) — and waits for the next change or for the agent's hold to flip. When the server
 * suggests continue-as-new, or a failure or the policy closes the walk, new starts stop and,
 * once running steps settle, the loop returns (steps are children of this run: it must not
 * close under them). What differs between a plan and a graph is a `WalkPolicy`
 * (execution.ts: the order of ready steps and when to replan; graph/graph-execution.ts: the
 * graph walk and its edges).
 */
import { CancellationScope } from '@temporalio/workflow';
import type { ErrorCode } from '../contract/error-codes';
import type { StepOutcome } from '../step/step-types';
import type { AgentRun } from './agent-run';
import { awaitChange } from './await-change';

/** Why a walk ended the agent: the step whose failure did it, its code and its error. */
export interface StepFailure {
  stepId: string;
  code: ErrorCode;
  error: string;
}

/** What the loop decided about a failed step, for its policy to carry out. */
export type FailureDecision = 'retry' | 'skip' | 'abort';

/** What differs between walking a plan and walking a graph. */
export interface WalkPolicy<Outcome> {
  /** Whether anything is left to run, so that a roll-over may be due. */
  leftToRun(): boolean;
  /** Whether the policy lets new steps start (a replan due or the graph ended closes it). */
  open(): boolean;
  /** Starts what is ready now, through `loop.launch`. */
  startReady(loop: WalkLoop<Outcome>): void;
  /** Whether a step runs. */
  running(): boolean;
  /** Whether a step waits to start (kept for when the hold lifts). */
  waiting(): boolean;
  /** Step `id` completed (the board has it already). */
  completed(loop: WalkLoop<Outcome>, id: string, outcome: StepOutcome & { status: 'completed' }): Promise<void>;
  /** Step `id` failed or was cancelled but goes to no failure policy (cancelled, or the walk already failing). */
  dropped(id: string): void;
  /** The question a person is asked when step `id` failed under `onStepFailure: ask`. */
  failurePrompt(id: string): string;
  /** Carries out the decision about failed step `id`; `abort` comes before running steps are cancelled. */
  decided(loop: WalkLoop<Outcome>, id: string, decision: FailureDecision): void;
  /** How the walk ended, once nothing runs. */
  outcome(failure: StepFailure | undefined, rolledOver: boolean): Outcome;
}

/** Runs a walk under `policy` until nothing runs and nothing may start. */
export function runWalk<Outcome>(agent: AgentRun, policy: WalkPolicy<Outcome>): Promise<Outcome> {
  return new WalkLoop(agent, policy).run();
}

/** One pass of the loop; its fields are what it waits on. */
export class WalkLoop<Outcome> {
  private readonly scopes: Record<string, CancellationScope> = {};
  private readonly tasks: Promise<void>[] = [];
  /** A step settled since the loop last looked. */
  private changed = false;
  private failure: StepFailure | undefined;
  /** A failure of the walk itself (a graph router's), thrown once running steps settled. */
  private fatal: Error | undefined;
  private rollOver = false;

  constructor(
    readonly agent: AgentRun,
    private readonly policy: WalkPolicy<Outcome>,
  ) {}

  async run(): Promise<Outcome> {
    const { hold } = this.agent;
    for (;;) {
      this.rollOver ||= this.policy.leftToRun() && this.agent.rollOverDue();
      const mayGoOn = !this.failed() && !this.rollOver && this.policy.open();
      // While held (paused, over budget) no step starts; the loop wakes when the hold lifts.
      const held = hold.held();
      if (mayGoOn && !held) this.policy.startReady(this);
      if (!this.policy.running() && !(held && mayGoOn && this.policy.waiting())) break;
      await awaitChange(() => this.changed, hold, held, this.tasks);
      this.changed = false;
    }
    await Promise.all(this.tasks);
    if (this.fatal !== undefined) throw this.fatal;
    return this.policy.outcome(this.failure, this.rollOver);
  }

  /** Whether a failure ends the walk. */
  failed(): boolean {
    return this.failure !== undefined || this.fatal !== undefined;
  }

  /** Ends the walk with `err`: running steps are cancelled, and it is thrown once they settled. */
  abort(err: Error): void {
    this.fatal ??= err;
    this.cancelAll();
  }

  /** Starts step `id` (already on the board) as `child`; false when the board would not start it. */
  launch(id: string, child: () => Promise<StepOutcome>): boolean {
    if (!this.agent.board.start(id)) return false;
    const scope = new CancellationScope();
    this.scopes[id] = scope;
    const task = scope
      .run(child)
      .then((outcome) => this.settle(id, outcome))
      .finally(() => void (this.changed = true));
    this.tasks.push(task);
    return true;
  }

  private async settle(id: string, outcome: StepOutcome): Promise<void> {
    const { board } = this.agent;
    delete this.scopes[id];
    if (outcome.progress) this.agent.progress(outcome.progress);
    if (outcome.status === 'completed') {
      board.complete(id, outcome.result, outcome);
      return this.policy.completed(this, id, outcome);
    }
    const cancelled = outcome.code === 'CANCELLED';
    board.end(id, cancelled ? 'cancelled' : 'failed', outcome.error);
    if (cancelled || this.failed()) return this.policy.dropped(id);
    await this.onFailed(id, outcome.code, outcome.error);
  }

  /** The failure policy: `fail` aborts, `continue` skips, `ask` lets a person decide. */
  private async onFailed(id: string, code: ErrorCode, error: string): Promise<void> {
    const { board, desk, settings } = this.agent;
    let decision: FailureDecision = settings.onStepFailure === 'fail' ? 'abort' : 'skip';
    if (settings.onStepFailure === 'ask') {
      board.await(id);
      const prompt = this.policy.failurePrompt(id);
      ({ decision } = await desk.ask<'step.failure'>({ kind: 'step.failure', prompt, error }, id));
      board.decide(id, decision);
    }
    if (decision === 'abort') this.failure = { stepId: id, code, error: `step ${id} failed: ${error}` };
    this.policy.decided(this, id, decision);
    if (decision === 'abort') this.cancelAll();
  }

  private cancelAll(): void {
    for (const scope of Object.values(this.scopes)) scope.cancel();
  }
}
