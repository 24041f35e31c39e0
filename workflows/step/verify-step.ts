/**
 * `mode.verifySteps`: after a step's model finished, one `verify` call judges the result. Its
 * usage rides on the round's report; an unreadable reply leaves the result standing, unverified.
 */
import { withModel } from '../model/llm/model-stages';
import { llmCall } from '../runtime/activity-proxies';
import type { StepProgress } from '../contract/messages';
import { addUsage } from '../model/llm/usage';
import type { RoundContext } from './step-round';
import {
  readVerifyReply,
  VERIFIER_SYSTEM_PROMPT,
  verifyTaskMessage,
  type VerifyReply,
} from '../model/step/verify-reply';

/** The checker's verdict on `result`, its usage added to `report`. */
export async function verifyStep(
  ctx: RoundContext,
  result: string,
  report: StepProgress,
): Promise<VerifyReply | undefined> {
  const { input, link } = ctx.tools;
  if (link.mustWait()) await link.whenFree();
  const reply = await llmCall(`${input.step.id} · verify`, {
    purpose: 'verify',
    ownerId: input.agentId,
    stepId: input.step.id,
    messages: [
      { role: 'system', content: VERIFIER_SYSTEM_PROMPT },
      { role: 'user', content: verifyTaskMessage(input.task, input.step, result) },
    ],
    json: true,
    schema: 'verify',
    ...withModel(input.verifyModel ?? input.model),
  });
  addUsage(report.usage, reply.usage);
  return readVerifyReply(reply.content);
}
