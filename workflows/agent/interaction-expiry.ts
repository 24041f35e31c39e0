/**
 * The durable timers of an interaction's timeout (visible in history with a summary): an
 * optional reminder, then expiry, and what the expiry policy then does. Times count from the
 * interaction's creation, so a run that inherits an open interaction waits only what is left.
 */
import { condition } from '@temporalio/workflow';
import { expiryAnswer } from '../model/interactions/expiry-answer';
import type { Answer, Interaction } from '../model/interactions/interaction-types';
import { workflowTime } from '../base/workflow-time';
import type { AgentContext } from '../model/agent/agent-context';
import type { AgentSettings } from '../model/agent/agent-input';

type ExpiryPolicy = NonNullable<AgentSettings['interactionTimeout']>['onExpiry'];

/** Hands an expiry's answer on (to the step that asked, if one did). */
export type Forward = (interaction: Interaction, answer: Answer, extra: { expired?: 'fail' }) => Promise<void>;

/**
 * Starts the expiry timers of an open interaction, when the agent has a timeout: a reminder on
 * the timeline, then the policy — `cancel` cancels the agent, `fail` fails the asker, `reject`
 * and `default` record their answer — and the answer goes to the step that asked.
 */
export function armExpiry(ctx: AgentContext, interaction: Interaction, forward: Forward): void {
  const timeout = ctx.settings.interactionTimeout;
  if (!timeout) return;
  const remind = () => {
    const message = `${interaction.id} still waits`;
    ctx.announce({ type: 'interaction.reminder', interactionId: interaction.id, message });
  };
  void awaitExpiry(interaction, timeout, remind).then((due) =>
    due ? expire(ctx, interaction, timeout.onExpiry, forward) : undefined,
  );
}

async function expire(ctx: AgentContext, interaction: Interaction, policy: ExpiryPolicy, forward: Forward) {
  interaction.status = 'expired';
  const { id } = interaction;
  ctx.announce({ type: 'interaction.expired', interactionId: id, message: `${id} expired (${policy})` });
  if (policy === 'cancel') return ctx.ending.expire(`${id} (${interaction.kind}) expired unanswered`);
  if (policy !== 'fail') {
    interaction.answer = expiryAnswer(interaction, policy);
    interaction.by = `policy:${policy}`;
    interaction.answeredAt = workflowTime();
  }
  ctx.changed();
  const answer = interaction.answer ?? { text: '' };
  await forward(interaction, answer, policy === 'fail' ? { expired: 'fail' } : {});
}

/**
 * Waits until `interaction` is closed (false) or its timeout is up while it is still open (true).
 * @param remind called once at `remindAfterMs` if it is still open then.
 */
export async function awaitExpiry(
  interaction: Interaction,
  timeout: NonNullable<AgentSettings['interactionTimeout']>,
  remind: () => void,
): Promise<boolean> {
  const closed = () => interaction.status !== 'open';
  const { remindAfterMs, afterMs } = timeout;
  const remindAt =
    remindAfterMs !== undefined && remindAfterMs < afterMs ? interaction.createdAt + remindAfterMs : undefined;
  if (remindAt !== undefined && remindAt > workflowTime()) {
    if (await condition(closed, remindAt - workflowTime(), { summary: `remind ${interaction.id}` })) return false;
    remind();
  }
  const left = Math.max(1, interaction.createdAt + afterMs - workflowTime());
  return !(await condition(closed, left, { summary: `expire ${interaction.id}` }));
}
