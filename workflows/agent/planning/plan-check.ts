/**
 * The plan check, one for plans and graphs alike: a person sees what the agent is about to run —
 * the first plan, a replanned remainder with what changed, or a graph — and answers (a plan:
 * confirm, revise, edit or cancel; a graph: confirm or cancel). The check a previous run left
 * open is the one waited on; with the server suggesting continue-as-new while it is open, the
 * answer is `'roll-over'` and the next run waits on.
 */
import type { AnswerOf, SpecOf } from '../../model/interactions/answer-types';
import type { AgentRun } from '../agent-run';

/** Waits at the plan check, opening it as `spec` unless a previous run left it open. */
export function askPlanCheck(
  run: AgentRun,
  spec: () => SpecOf<'plan.check'>,
): Promise<AnswerOf<'plan.check'> | 'roll-over'> {
  run.setPhase('awaiting_input');
  const check = run.desk.findOpen('plan.check') ?? run.desk.open(spec());
  return run.desk.answerOf(check, true);
}
