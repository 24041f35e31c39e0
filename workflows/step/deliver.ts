/**
 * `limits.onRoundsExhausted: 'deliver'`: a step whose rounds ran out without a finish makes one
 * last model call with no tools, asking for its best answer from what it gathered, and completes
 * marked `delivered` with that answer (an empty reply still fails it STEP_ROUNDS_EXHAUSTED). The
 * last round's report goes first, so a budget crossed by it holds the call like any other.
 */
import { isCancellation } from '@temporalio/workflow';
import { llmCall } from '../runtime/activity-proxies';
import type { StepProgress } from '../contract/messages';
import { describeFailure } from '../runtime/describe-failure';
import type { AgentLink } from './agent-link';
import { conversationToSend, STEP_CONVERSATION, type RoundContext } from './step-round';
import type { StepOutcome } from './step-types';

/** What the model hears before the delivering call. */
export const DELIVER_NOTE =
  'You have used all your rounds. Give your best final answer to the step now, as plain text, from what you have gathered so far.';

export async function deliver(
  ctx: RoundContext,
  link: AgentLink,
  round: number,
  last: StepProgress,
): Promise<StepOutcome> {
  const { input } = ctx.tools;
  const { step } = input;
  await link.report(last);
  ctx.conversations.append(STEP_CONVERSATION, { role: 'user', content: DELIVER_NOTE });
  const next = round + 1;
  if (link.mustWait()) await link.whenFree();
  let reply;
  try {
    reply = await llmCall(`${step.id} · deliver`, {
      purpose: 'step',
      ownerId: input.agentId,
      stepId: step.id,
      ...conversationToSend(ctx),
      toolNames: [],
      ...(input.model ? { model: input.model } : {}),
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    const { code, message } = describeFailure(err);
    return { status: 'failed', code, error: message, rounds: next };
  }
  ctx.tools.ledger.spend(reply.usage);
  ctx.conversations.append(STEP_CONVERSATION, { role: 'assistant', content: reply.content });
  ctx.transcript.replied(next, reply.content, reply.reasoning, []);
  const { usage, toolCalls } = ctx.tools.ledger.settle();
  const streamed = reply.streamed !== undefined ? { streamed: reply.streamed } : {};
  const progress: StepProgress = { stepId: step.id, round: next, model: reply.model, ...streamed, usage, toolCalls };
  const answer = reply.content?.trim();
  if (!answer) {
    const error = `step ${step.id} used all ${input.maxStepRounds} rounds, and its delivering call gave no answer`;
    return { status: 'failed', code: 'STEP_ROUNDS_EXHAUSTED', error, rounds: next, progress };
  }
  return { status: 'completed', result: answer, delivered: true, rounds: next, progress };
}
