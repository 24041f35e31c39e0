/**
 * The agent's deadline (`limits.deadlineMs`), counted from the agent's start — the start of its
 * execution chain, so continue-as-new does not move it — on a durable timer: a worker restart
 * or a new run re-arms the timer for what is left. At the deadline the agent ends as `stopped`
 * with reason `deadline`: running steps are cancelled, finished ones keep their results, and
 * the answer is a mechanical summary. With `onDeadline: ask` a `deadline` interaction asks a
 * person instead (the agent runs on meanwhile): `extend` moves the deadline that far from now,
 * `stop` stops. The moment is kept in the state (`deadlineAt`).
 */
import { sleep, workflowInfo } from '@temporalio/workflow';
import type { AnswerOf } from '../model/interactions/answer-types';
import type { AgentContext } from '../model/agent/agent-context';
import { isTerminalPhase } from '../model/agent/agent-state';
import type { InteractionDesk } from './interaction-desk';
import { workflowTime } from '../base/workflow-time';

export class Deadline {
  constructor(
    private readonly ctx: AgentContext,
    private readonly desk: InteractionDesk,
  ) {}

  /** Arms the timer when the agent has a deadline (a no-op, and no command, otherwise). */
  serve(): this {
    const { state } = this.ctx;
    const { deadlineMs } = this.ctx.settings.limits;
    if (deadlineMs === undefined || isTerminalPhase(state.phase)) return this;
    state.deadlineAt ??= workflowInfo().startTime.getTime() + deadlineMs;
    void this.watch();
    return this;
  }

  private async watch(): Promise<void> {
    const { state } = this.ctx;
    for (;;) {
      const left = (state.deadlineAt ?? 0) - workflowTime();
      if (left > 0) {
        await sleep(left);
        continue;
      }
      if (isTerminalPhase(state.phase)) return;
      const answer = this.ctx.settings.onDeadline === 'ask' ? await this.ask() : undefined;
      if (answer?.decision !== 'extend' || answer.deadlineMs === undefined) return this.ctx.ending.stop('deadline');
      state.deadlineAt = workflowTime() + answer.deadlineMs;
    }
  }

  /** Asks whether to extend (or waits on the question a previous run asked); an expiry stops. */
  private async ask(): Promise<AnswerOf<'deadline'> | undefined> {
    const { state } = this.ctx;
    const { desk } = this;
    const deadlineAt = state.deadlineAt ?? workflowTime();
    const open =
      desk.findOpen('deadline') ??
      desk.open<'deadline'>({ kind: 'deadline', prompt: 'The deadline was reached. Extend it or stop?', deadlineAt });
    try {
      const answer = await desk.answerOf(open, false);
      return answer === 'roll-over' ? undefined : answer;
    } catch {
      return undefined; // expired unanswered under the `fail` policy: stop
    }
  }
}
