/**
 * The `verify` model call's words and reply (`mode.verifySteps`): a checker reads a finished
 * step — its description, its done-when and its result — and answers `{ "ok": boolean,
 * "feedback": "…" }`; not ok sends the step back with the feedback. Pure, so identical on replay.
 */
import { z } from 'zod';
import { parseJsonReply } from '../json-reply';
import type { PlanStep } from '../plan/plan-types';

/** Times one step may be sent back before its result stands (marked unverified). */
export const MAX_SEND_BACKS = 2;

/** The checker's reply. */
export const verifyReplySchema = z.strictObject({
  ok: z.boolean().describe('Whether the result does what the step asks.'),
  feedback: z.string().max(4_000).describe('What is missing or wrong, when not ok; else a short confirmation.'),
});

/** The checker's reply. */
export type VerifyReply = z.infer<typeof verifyReplySchema>;

/** JSON Schema of {@link verifyReplySchema}: what the `verify` reply must match. */
export function verifyJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(verifyReplySchema);
}

/** The checker's system prompt. */
export const VERIFIER_SYSTEM_PROMPT = [
  'You check the result of one step of a plan. Judge only whether the result does what the step asks (and meets its done-when, when it has one).',
  'Answer with a JSON object only: {"ok": true | false, "feedback": "<what is missing or wrong, or a short confirmation>"}.',
].join('\n');

/** What the checker reads: the overall task, the step and its result. */
export function verifyTaskMessage(task: string, step: PlanStep, result: string): string {
  return [
    `Overall task: ${task}`,
    `Step (${step.id}): ${step.title}\n${step.description}`,
    ...(step.done_when ? [`Done when: ${step.done_when}`] : []),
    `Result:\n${result}`,
  ].join('\n\n');
}

/** The checker's verdict, or undefined when its reply cannot be read (the result then stands, unverified). */
export function readVerifyReply(content: string | null): VerifyReply | undefined {
  const json = parseJsonReply(content);
  if (!json.ok) return undefined;
  const parsed = verifyReplySchema.safeParse(json.value);
  return parsed.success ? parsed.data : undefined;
}

/** What the step's model hears when the checker sends it back. */
export function sendBackMessage(feedback: string): string {
  return `A checker sent your result back: ${feedback}\nContinue the step to address this, then call finish_step again.`;
}
