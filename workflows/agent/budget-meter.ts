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
 * round).
 *
 * Nested agents: their usage reaches this meter only with their result, so a step starts one
 * with the budget left as its own (`limits`; budget-left.ts), kept current when a raise lifts
 * the hold. A nested agent's meter never asks a person: at its budget it holds its tree and
 * stops itself (`stopped`, reason `budget`); the step counts its usage with its round, and the
 * top-level meter opens the `budget` interaction as usual. Several nested agents running at once
 * are each given all that is left, so the overshoot is still bounded by what runs in parallel.
 */
import { patched, setHandler } from '@temporalio/workflow';
import { asLimits, type BudgetLeft } from '../model/llm/budget-left';
import type { InteractionOf } from '../model/interactions/answer-types';
import type { TokenUsage } from '../model/llm/llm-types';
import { parseNestedBudget } from '../contract/message-payloads';
import { nestedBudgetSignal, type StepProgress } from '../contract/messages';
import { addUsage, knownCost } from '../model/llm/usage';
import type { AgentHold } from './agent-hold';
import type { AgentContext } from '../model/agent/agent-context';
import { atCeiling, costBudgetInForce, isMetered, tokenBudgetInForce, treeBudgetLeft } from './budget-in-force';
import type { InteractionDesk } from './interaction-desk';
import { PATCHES } from '../base/patches';
import { received, UNENCRYPTED_REFUSAL } from '../runtime/unencrypted-payload';

export class BudgetMeter {
  constructor(
    private readonly ctx: AgentContext,
    private readonly hold: AgentHold,
    private readonly desk: InteractionDesk,
  ) {}

  /** A nested agent (`sub_agent`): at its budget it stops itself instead of asking. */
  private get nested(): boolean {
    return this.ctx.settings.nested;
  }

  /** Watches a `budget` interaction a previous run left open (continue-as-new); takes a nested agent's new budget. */
  serve(): this {
    const open = this.desk.findOpen('budget');
    if (open) void this.decide(open);
    setHandler(nestedBudgetSignal, (raw) => {
      const sent = received(raw);
      const parsed = sent.refused ? { ok: false as const, error: UNENCRYPTED_REFUSAL } : parseNestedBudget(sent.value);
      if (parsed.ok && this.nested) return this.takeBudget(parsed.value);
      const error = parsed.ok ? 'only a nested agent takes it' : parsed.error;
      this.ctx.announce({ type: 'signal.rejected', message: `nestedBudget signal rejected: ${error}` });
    });
    return this;
  }

  /**
   * What the tree's budget has left now, for the steps (and the nested agents they start):
   * undefined without a budget, and in runs recorded before nested budgets existed.
   */
  left(): BudgetLeft | undefined {
    return treeBudgetLeft(this.ctx.state, this.ctx.settings.limits);
  }

  /** The token budget in force, if any. */
  budget(): number | undefined {
    return tokenBudgetInForce(this.ctx.state, this.ctx.settings.limits);
  }

  /** The cost budget in force (US dollars), if any. */
  costBudget(): number | undefined {
    return costBudgetInForce(this.ctx.state, this.ctx.settings.limits);
  }

  /** Whether any budget is in force: steps then wait for each report's acknowledgement. */
  metered(): boolean {
    return isMetered(this.ctx.state, this.ctx.settings.limits);
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
    if (this.metered()) this.hold.acknowledge(progress.stepId, progress.round);
  }

  /** Which budget the usage reached, and how; an unknown cost never reaches the cost budget. */
  private spent(): { text: string; reached: 'tokens' | 'cost' } | undefined {
    const { usage } = this.ctx.state;
    const tokens = this.budget();
    if (tokens !== undefined && usage.totalTokens >= tokens)
      return { text: `${usage.totalTokens} of ${tokens} tokens used`, reached: 'tokens' };
    const dollars = this.costBudget();
    const cost = knownCost(usage);
    if (dollars !== undefined && cost !== undefined && cost >= dollars)
      return { text: `$${cost} of $${dollars} spent`, reached: 'cost' };
    return undefined;
  }

  /** Checks the total against the budgets: crossing one holds the agent and asks a person. */
  check(): void {
    const { state } = this.ctx;
    const { desk, hold } = this;
    if (desk.findOpen('budget')) return;
    const spent = this.spent();
    if (spent === undefined) return;
    // The usage cancelled steps hand back while the agent ends (runs recorded before they did ask).
    if (this.ctx.ending.underway && patched(PATCHES.stepPartialResult)) return;
    hold.hold('budget');
    if (this.nested && patched(PATCHES.nestedBudget)) {
      // Nested agents never ask: held first, so no step of its tree starts another call, then stopped.
      return this.ctx.ending.stop('budget');
    }
    // At its ceiling (a thread's turn that spent what the thread had left) no raise could be
    // taken: it stops as a nested agent does. Only inputs with a ceiling (none recorded before it) come here.
    const { limits } = this.ctx.settings;
    if (atCeiling(state, limits, spent.reached)) return this.ctx.ending.stop('budget');
    const toDo = state.steps.filter((s) => s.status === 'pending' || s.status === 'running' || s.status === 'waiting');
    const left = toDo.length > 0 ? ` Still to do: ${toDo.map((s) => s.title).join('; ')}.` : '';
    const tokenBudget = this.budget();
    const costBudgetUsd = this.costBudget();
    const { maxTokenBudget, maxCostBudgetUsd } = limits;
    const most = maxTokenBudget !== undefined ? ` (at most ${maxTokenBudget} tokens)` : '';
    const interaction = desk.open<'budget'>({
      kind: 'budget',
      prompt: `The budget is spent: ${spent.text}.${left} Raise the budget${most} or stop?`,
      usedTokens: state.usage.totalTokens,
      ...(tokenBudget !== undefined ? { tokenBudget } : {}),
      costUsd: state.usage.costUsd ?? null,
      ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
      ...(maxTokenBudget !== undefined ? { maxTokenBudget } : {}),
      ...(maxCostBudgetUsd !== undefined ? { maxCostBudgetUsd } : {}),
    });
    void this.decide(interaction);
  }

  /** A nested agent's new budget (the tree's was raised): it goes on with it, or stops if it is spent. */
  private takeBudget(left: BudgetLeft): void {
    const { state } = this.ctx;
    const { hold } = this;
    const limits = asLimits(left);
    if (limits.tokenBudget !== undefined) state.tokenBudget = limits.tokenBudget;
    if (limits.costBudgetUsd !== undefined) state.costBudgetUsd = limits.costBudgetUsd;
    this.check();
    hold.tellBudget(); // its steps, and their nested agents, go on with the new budget
  }

  /** Waits for the answer: `raise` resumes everything, `stop` (or an expiry that fails) stops. */
  private async decide(interaction: InteractionOf<'budget'>): Promise<void> {
    let answer;
    try {
      answer = await this.desk.answerOf(interaction, false);
    } catch {
      return this.ctx.ending.stop('budget'); // expired unanswered under the `fail` policy
    }
    if (answer === 'roll-over' || answer.decision === 'stop') return this.ctx.ending.stop('budget');
    if (answer.tokenBudget !== undefined) this.ctx.state.tokenBudget = answer.tokenBudget;
    if (answer.costBudgetUsd !== undefined) this.ctx.state.costBudgetUsd = answer.costBudgetUsd;
    this.hold.release('budget');
    this.check(); // calls that were in flight (or a budget not raised) may be spent already
  }
}
