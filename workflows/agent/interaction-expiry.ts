/**
 * The durable timers of an interaction's timeout (visible in history with a summary): an
 * optional reminder, then expiry. Times count from the interaction's creation, so a run that
 * inherits an open interaction waits only what is left.
 */
import { condition } from '@temporalio/workflow';
import type { Interaction } from '../interactions/interaction-types';
import { workflowTime } from '../workflow-time';
import type { AgentSettings } from './agent-input';

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
