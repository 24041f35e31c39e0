/**
 * One meter per agent tree: every token (and its cost) the agent's own calls, its steps, their `model`
 * sub-calls and nested agents report is added here (steps report per round, a nested agent's
 * usage comes with its step's round). When the total reaches a budget in force (tokens, or
 * dollars from the price table — an unknown cost never reaches it) the agent is
 * held — never failed — and a `budget` interaction asks a person: `raise` lifts the hold where
 * everything stopped, `stop` ends the agent as `stopped`.
 *
 * Overshoot bound: usage is known when a call returns, so the crossing is seen after the call
 * that crossed. With a budget, a step waits for the agent's acknowledgement of each round's
 * report before its next model call, and the agent's own calls are counted before the next
 * starts; so after the crossing no new model call starts anywhere in the tree, and the budget
 * is overshot by at most the calls already in flight then — one per running step (at most
 * `maxParallelSteps`), plus the `model` sub-calls of the round each is in (counted with the
 * round). A nested agent's usage comes with its result; its tree is held by the step's hold.
 */
import type { InteractionOf } from '../interactions/answer-types';
import type { TokenUsage } from '../llm-types';
import type { StepProgress } from '../messages';
import { addUsage, knownCost } from '../usage';
import type { AgentHold } from './agent-hold';
import type { AgentState } from './agent-state';
import type { InteractionDesk } from './interaction-desk';

/** What the meter needs from the agent around it. */
export interface MeterContext {
  state: AgentState;
  /** `limits.tokenBudget` and `limits.costBudgetUsd` from the input. */
  limits: { tokenBudget?: number | undefined; costBudgetUsd?: number | undefined };
  hold: AgentHold;
  desk: InteractionDesk;
  /** Ends the agent as `stopped` for `reason`. */
  stop(reason: string): void;
}

export class BudgetMeter {
  constructor(private readonly ctx: MeterContext) {}

  /** Watches a `budget` interaction a previous run left open (continue-as-new). */
  serve(): this {
    const open = this.ctx.desk.findOpen('budget');
    if (open) void this.decide(open);
    return this;
  }

  /** The token budget in force, if any. */
  budget(): number | undefined {
    return this.ctx.state.tokenBudget ?? this.ctx.limits.tokenBudget;
  }

  /** The cost budget in force (US dollars), if any. */
  costBudget(): number | undefined {
    return this.ctx.state.costBudgetUsd ?? this.ctx.limits.costBudgetUsd;
  }

  /** Whether any budget is in force: steps then wait for each report's acknowledgement. */
  metered(): boolean {
    return this.budget() !== undefined || this.costBudget() !== undefined;
  }

  /** Adds one call's (or one step round's) usage to the agent's total and checks the budget. */
  add(usage: TokenUsage): void {
    addUsage(this.ctx.state.usage, usage);
    this.check();
  }

  /**
   * Answers a step's round report (already counted) when a budget is in force: the step starts
   * its next call only after this, so a crossing it caused holds it first.
   */
  acknowledge(progress: StepProgress): void {
    if (this.metered()) this.ctx.hold.acknowledge(progress.stepId, progress.round);
  }

  /** Whether the usage reached a budget; an unknown cost never reaches the cost budget. */
  private spent(): string | undefined {
    const { usage } = this.ctx.state;
    const tokens = this.budget();
    if (tokens !== undefined && usage.totalTokens >= tokens) return `${usage.totalTokens} of ${tokens} tokens used`;
    const dollars = this.costBudget();
    const cost = knownCost(usage);
    if (dollars !== undefined && cost !== undefined && cost >= dollars) return `$${cost} of $${dollars} spent`;
    return undefined;
  }

  /** Checks the total against the budgets: crossing one holds the agent and asks a person. */
  check(): void {
    const { state, desk, hold } = this.ctx;
    if (desk.findOpen('budget')) return;
    const spent = this.spent();
    if (spent === undefined) return;
    hold.hold('budget');
    const toDo = state.steps.filter((s) => s.status === 'pending' || s.status === 'running' || s.status === 'waiting');
    const left = toDo.length > 0 ? ` Still to do: ${toDo.map((s) => s.title).join('; ')}.` : '';
    const tokenBudget = this.budget();
    const costBudgetUsd = this.costBudget();
    const interaction = desk.open<'budget'>({
      kind: 'budget',
      prompt: `The budget is spent: ${spent}.${left} Raise the budget or stop?`,
      usedTokens: state.usage.totalTokens,
      ...(tokenBudget !== undefined ? { tokenBudget } : {}),
      costUsd: state.usage.costUsd ?? null,
      ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
    });
    void this.decide(interaction);
  }

  /** Waits for the answer: `raise` resumes everything, `stop` (or an expiry that fails) stops. */
  private async decide(interaction: InteractionOf<'budget'>): Promise<void> {
    let answer;
    try {
      answer = await this.ctx.desk.answerOf(interaction, false);
    } catch {
      return this.ctx.stop('budget'); // expired unanswered under the `fail` policy
    }
    if (answer === 'roll-over' || answer.decision === 'stop') return this.ctx.stop('budget');
    if (answer.tokenBudget !== undefined) this.ctx.state.tokenBudget = answer.tokenBudget;
    if (answer.costBudgetUsd !== undefined) this.ctx.state.costBudgetUsd = answer.costBudgetUsd;
    this.ctx.hold.release('budget');
    this.check(); // calls that were in flight (or a budget not raised) may be spent already
  }
}
